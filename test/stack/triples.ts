// What a loaded dataset's SPARQL endpoint must answer in a stack test: the triples of the
// dataset's joined graphs, downloaded through the gateway and parsed here. Its default graph is
// the union (RDF merge) of its graphs: a triple in two graphs counts once, a blank node is its
// own graph's.
import assert from 'node:assert/strict';
import { Parser, type Term } from 'n3';
import { api } from '../catalogue/actions/support.ts';

const key = (term: Term, graph: string): string =>
  term.termType === 'BlankNode' ? `_:${graph}:${term.value}` : term.id;

/** The joined graphs of `dataset` (by id or name) and their distinct triples. */
export async function joinedTriplesOf(
  url: string,
  headers: Record<string, string>,
  dataset: string,
): Promise<{ graphs: number; triples: number }> {
  const shown = await api(url, 'package_show', { body: { id: dataset }, headers });
  assert.equal(shown.status, 200, `package_show ${dataset}`);
  const { id, resources } = shown.body.result as { id: string; resources: { id: string; name: string }[] };
  const joined = resources.filter((r) => r.name.endsWith('-joined.ttl'));
  const triples = new Set<string>();
  for (const r of joined) {
    const answer = await fetch(`${url}/dataset/${id}/resource/${r.id}/download`, { headers });
    assert.equal(answer.status, 200, `download of ${r.name}`);
    for (const q of new Parser({ format: 'Turtle' }).parse(await answer.text()))
      triples.add([q.subject, q.predicate, q.object].map((t) => key(t, r.id)).join(' '));
  }
  return { graphs: joined.length, triples: triples.size };
}
