// The Fuseki server the *.fuseki.ts suites share (LABLD_TEST_TRIPLESTORE_URL, which .ci/run sets
// after tools/fuseki/server.sh started the server; unset, they fail rather than skip).
import { openTripleStore } from '../../lib/triplestore/open.ts';
import type { QueryLimits } from '../../lib/triplestore/contract.ts';
import { DEFAULT_TEST_LIMITS, type TripleStoreEnvironment } from './support.ts';

export function fusekiUrl(): string {
  const url = process.env.LABLD_TEST_TRIPLESTORE_URL;
  if (!url) {
    throw new Error(
      'LABLD_TEST_TRIPLESTORE_URL is not set: the Fuseki suite needs a server (tools/fuseki/server.sh)',
    );
  }
  return url;
}

/** Every test uses dataset ids and graph IRIs of its own, so they share the server. */
export function fusekiEnvironment(url = fusekiUrl()): TripleStoreEnvironment {
  return {
    name: 'fuseki',
    async fresh() {
      return {
        connect: (limits?: Partial<QueryLimits>) =>
          openTripleStore({
            url,
            dataDir: '',
            limits: { ...DEFAULT_TEST_LIMITS, ...limits },
            memoryTriples: 0,
          }),
        dispose: async () => {},
      };
    },
  };
}
