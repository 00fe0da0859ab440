// The Bus conformance suite on the embedded transport: each test gets its own data directory.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { busConformance, TOPICS } from './conformance.ts';
import { openBus, catalogOf, type BusConfig } from '../../lib/bus/open.ts';
import type { Bus } from '../../lib/bus/contract.ts';

busConformance({
  name: 'embedded',
  async fresh() {
    const dataDir = mkdtempSync(join(tmpdir(), 'labld-bus-'));
    const open: Bus[] = [];
    const config: BusConfig = { transport: 'embedded', dataDir, topicsFile: TOPICS };
    return {
      async connect(options = {}) {
        const c = { ...config, clientId: options.clientId, topicsFile: options.topicsFile ?? TOPICS };
        const bus = await openBus(c, catalogOf(c));
        open.push(bus);
        return bus;
      },
      childConfig: () => config,
      async dispose() {
        await Promise.all(open.map((bus) => bus.close()));
      },
    };
  },
});
