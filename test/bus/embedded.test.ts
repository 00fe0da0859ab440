// The Bus conformance suite on the embedded transport: each test gets its own data directory.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { busConformance, namespaceOf, TOPICS } from './conformance.ts';

busConformance({
  name: 'embedded',
  async fresh() {
    const dataDir = mkdtempSync(join(tmpdir(), 'labld-bus-'));
    return namespaceOf({ transport: 'embedded', dataDir, topicsFile: TOPICS });
  },
});
