// lib/triplestore/bounds.ts measured directly: the text scan counts only what is a term of the
// tree and only brackets that nest (not those in strings, IRIs or comments), so a query right
// at the limits passes and one past them is refused naming the setting.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DomainError } from '../../lib/process/errors.ts';
import { DEFAULT_QUERY_BOUNDS, checkText, queryBoundsFromEnv } from '../../lib/triplestore/bounds.ts';
import { guardQuery } from '../../lib/triplestore/guard.ts';

const tight = { maxNodes: 20, maxDepth: 3, maxUnion: 2, maxPath: 2, maxValues: 2 };

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof DomainError, String(error));
    assert.equal(error.kind, 'too-large');
    return error.message;
  }
  assert.fail('not refused');
}

describe('query bounds', () => {
  it('the settings, and their defaults', () => {
    assert.deepEqual(DEFAULT_QUERY_BOUNDS, {
      maxNodes: 2000,
      maxDepth: 128,
      maxUnion: 100,
      maxPath: 32,
      maxValues: 1000,
    });
    assert.equal(queryBoundsFromEnv({ LABLD_SPARQL_MAX_PATH: '7' }).maxPath, 7);
  });

  it('brackets and terms inside strings, IRIs and comments are not counted', () => {
    // 12 terms (6 projected, 6 in the patterns), brackets one deep; the string, IRI and
    // comment hide 3 more terms and 10 brackets.
    const text = 'SELECT ?a ?b ?c ?d ?e ?f WHERE { # ?z {{{{\n ?a ?b "((( {{{ ?x ?y" . ?c ?d <urn:x(((> }';
    checkText(text, 'query', { ...tight, maxNodes: 12, maxDepth: 1 });
    assert.match(
      refusal(() => checkText(text, 'query', { ...tight, maxNodes: 11 })),
      /more than 11 terms/,
    );
  });

  it('past each limit: refused before running, naming the setting', () => {
    const cases: [string, RegExp][] = [
      [
        'SELECT * WHERE { { { { ?s ?p ?o } } } }',
        /brackets nested more than 3 deep \(LABLD_SPARQL_MAX_DEPTH\)/,
      ],
      [`SELECT * WHERE { ${'?s ?p ?o . '.repeat(8)}}`, /more than 20 terms \(LABLD_SPARQL_MAX_NODES\)/],
      [`SELECT * WHERE { ${'{} '.repeat(21)}}`, /more than 40 tokens \(2 × LABLD_SPARQL_MAX_NODES\)/],
      [
        'SELECT * WHERE { {?s ?p 1} UNION {?s ?p 2} UNION {?s ?p 3} }',
        /UNION of 3 branches.*LABLD_SPARQL_MAX_UNION/,
      ],
      ['SELECT * WHERE { ?s <urn:a>/<urn:b>/<urn:c> ?o }', /property path of 3 steps.*LABLD_SPARQL_MAX_PATH/],
      ['SELECT * WHERE { VALUES ?x { 1 2 3 } }', /VALUES of 3 cells.*LABLD_SPARQL_MAX_VALUES/],
      [
        'SELECT * WHERE { ?s ?p ?o BIND(1 AS ?a) BIND(2 AS ?b) BIND(3 AS ?c) }',
        /algebra nested more than 3 deep/,
      ],
    ];
    for (const [text, expected] of cases) {
      assert.match(
        refusal(() => guardQuery(text, [], 10, tight)),
        expected,
        text,
      );
    }
  });

  it('the default bounds let an ordinary query through', () => {
    const text = `PREFIX qudt: <http://qudt.org/schema/qudt/>
      SELECT ?m (AVG(?v) AS ?avg) WHERE {
        ?m a <https://w3id.org/pmd/co/Measurement> ; qudt:value ?v ; qudt:unit ?u .
        OPTIONAL { ?m <urn:p:next>+ ?later }
        FILTER(?v > 1.5 && REGEX(STR(?u), "KiloN$"))
        VALUES ?u { <http://qudt.org/vocab/unit/KiloN> <http://qudt.org/vocab/unit/N> }
      } GROUP BY ?m ORDER BY DESC(?avg) LIMIT 10`;
    assert.equal(guardQuery(text, [], 10).form, 'select');
  });
});
