// The TripleStore contract and escape suites on Apache Jena Fuseki (LABLD_TEST_TRIPLESTORE_URL,
// which .ci/run sets after tools/fuseki/server.sh started the server; unset, this fails rather
// than skips). Every test uses dataset ids and graph IRIs of its own, so they share the server.
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { openTripleStore, tripleStoreConfigFromEnv } from '../../lib/triplestore/open.ts';
import { DomainError } from '../../lib/process/errors.ts';
import { tripleStoreConformance } from './conformance.ts';
import { escapeSuite } from './escape.ts';
import { fusekiEnvironment, fusekiUrl } from './fuseki-environment.ts';
import { DEFAULT_TEST_LIMITS } from './support.ts';

const url = fusekiUrl();
const environment = fusekiEnvironment(url);

tripleStoreConformance(environment);
escapeSuite(environment);

it('open: LABLD_TRIPLESTORE_URL picks the remote store; a server that does not answer is unreachable', async () => {
  assert.equal(tripleStoreConfigFromEnv({ LABLD_TRIPLESTORE_URL: url }).url, url);
  const dead = 'http://someone:secret@127.0.0.1:1/labld';
  await assert.rejects(
    openTripleStore({ url: dead, dataDir: '', limits: DEFAULT_TEST_LIMITS, memoryTriples: 0 }),
    (error: unknown) => {
      assert.ok(error instanceof DomainError && error.kind === 'unreachable', String(error));
      assert.doesNotMatch(error.message, /secret/);
      return true;
    },
  );
});
