// Queries past the bounds of lib/triplestore/bounds.ts are refused before they run, naming the
// limit, on every store (issue 25, finding 1): the hostile queries that must be refused, each
// followed by an ordinary query the store still answers.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HOSTILE_QUERIES, ORDINARY_QUERY, hostileData } from '../hostile/queries.ts';
import {
  freshStores,
  type TripleStoreEnvironment,
  count,
  datasetId,
  graphOf,
  refused,
  turtle,
} from './support.ts';

export function boundsSuite(env: TripleStoreEnvironment): void {
  describe(`query bounds (${env.name})`, () => {
    const open = freshStores(env);

    it('every query past a bound is refused (413) naming its LABLD_SPARQL_* limit; the next one answers', async () => {
      const store = await open();
      const ds = datasetId('bounds');
      await store.replaceGraph(ds, graphOf(ds), turtle(hostileData(20)));
      for (const hostile of HOSTILE_QUERIES.filter((q) => q.refused !== undefined)) {
        const error = await refused(store.query(ds, hostile.text), 'too-large', 'query');
        assert.match(error.message, new RegExp(hostile.refused!), hostile.label);
        assert.equal(count(await store.query(ds, ORDINARY_QUERY)), 40, `after ${hostile.label}`);
      }
    });

    it('an update past a bound is refused the same way, naming its field', async () => {
      const store = await open();
      const ds = datasetId('bounds-update');
      await store.replaceGraph(ds, graphOf(ds), turtle(hostileData(2)));
      const update = `INSERT { GRAPH <${graphOf(ds)}> { ?s ?p ?o } } WHERE { ${'{'.repeat(500)} ?s ?p ?o ${'}'.repeat(500)} }`;
      const error = await refused(store.update(ds, update), 'too-large', 'update');
      assert.match(error.message, /LABLD_SPARQL_MAX_DEPTH/);
    });
  });
}
