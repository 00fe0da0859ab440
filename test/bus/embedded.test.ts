// The Bus conformance suite on the embedded transport: each test gets its own data directory.
import { busConformance, namespaceOf, TOPICS } from './conformance.ts';
import { tempDir } from '../support/temp.ts';

busConformance({
  name: 'embedded',
  async fresh() {
    const dataDir = tempDir('labld-bus-');
    return namespaceOf({ transport: 'embedded', dataDir, topicsFile: TOPICS });
  },
});
