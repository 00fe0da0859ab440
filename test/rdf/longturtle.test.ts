// longturtle layout. Every expected text below is written by hand from rdflib's layout rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse, serialize } from '../../lib/rdf/index.ts';
import { assertIsomorphic } from './support.ts';

const PREFIXES = { ex: 'http://example.org/', foaf: 'http://xmlns.com/foaf/0.1/' };
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

const PEOPLE = `
<http://example.org/bob> <http://xmlns.com/foaf/0.1/name> "Bob" .
<http://example.org/alice> <http://xmlns.com/foaf/0.1/nick> "Ally"@en .
<http://example.org/alice> <http://example.org/address> _:addr .
_:addr <http://example.org/zip> "10115"^^<${XSD}integer> .
<http://example.org/alice> <http://xmlns.com/foaf/0.1/knows> <http://example.org/bob> .
<http://example.org/alice> <http://www.w3.org/2000/01/rdf-schema#label> "Alice A." .
_:addr <http://example.org/city> "Berlin" .
<http://example.org/alice> <http://xmlns.com/foaf/0.1/name> "Alice" .
<http://example.org/alice> <http://xmlns.com/foaf/0.1/nick> "Al" .
<http://example.org/alice> <${RDF}type> <http://xmlns.com/foaf/0.1/Person> .
<http://example.org/bob> <http://example.org/scores> _:l1 .
_:l1 <${RDF}first> "1"^^<${XSD}integer> .
_:l1 <${RDF}rest> _:l2 .
_:l2 <${RDF}first> "2"^^<${XSD}integer> .
_:l2 <${RDF}rest> <${RDF}nil> .
_:note <http://example.org/about> <http://example.org/bob> .
`;

const PEOPLE_LONGTURTLE = `PREFIX ex: <http://example.org/>
PREFIX foaf: <http://xmlns.com/foaf/0.1/>
PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>

ex:alice
    a foaf:Person ;
    rdfs:label "Alice A." ;
    ex:address
        [
            ex:city "Berlin" ;
            ex:zip 10115 ;
        ] ;
    foaf:knows ex:bob ;
    foaf:name "Alice" ;
    foaf:nick
        "Al" ,
        "Ally"@en ;
.

ex:bob
    ex:scores (
        1
        2
    ) ;
    foaf:name "Bob" ;
.

[]
    ex:about ex:bob ;
.
`;

describe('longturtle', () => {
  it('lays out a small graph as rdflib does', async () => {
    const quads = await parse(PEOPLE, 'nt');
    assert.equal(await serialize(quads, 'longturtle', { prefixes: PREFIXES }), PEOPLE_LONGTURTLE);
  });

  it('writes the same text whatever the input order and blank node labels', async () => {
    const shuffled = PEOPLE.trim()
      .split('\n')
      .reverse()
      .join('\n')
      .replaceAll('_:addr', '_:zz')
      .replaceAll('_:l', '_:q');
    const quads = await parse(shuffled, 'nt');
    assert.equal(await serialize(quads, 'longturtle', { prefixes: PREFIXES }), PEOPLE_LONGTURTLE);
  });

  it('reads back as Turtle to the same graph', async () => {
    const quads = await parse(PEOPLE, 'nt');
    await assertIsomorphic(await parse(PEOPLE_LONGTURTLE, 'longturtle'), quads, 'longturtle');
  });

  it('labels a blank node referenced twice and gives it its own block', async () => {
    const text = `
<http://example.org/b> <http://example.org/p> _:x .
<http://example.org/a> <http://example.org/p> _:x .
_:x <http://example.org/q> "shared" .
`;
    const expected = `PREFIX ex: <http://example.org/>

ex:a
    ex:p _:c14n0 ;
.

ex:b
    ex:p _:c14n0 ;
.

_:c14n0
    ex:q "shared" ;
.
`;
    assert.equal(await serialize(await parse(text, 'nt'), 'longturtle', { prefixes: PREFIXES }), expected);
  });

  it('breaks a cycle of blank nodes at one labelled block', async () => {
    const text = `
_:a <http://example.org/next> _:b .
_:b <http://example.org/next> _:a .
`;
    const out = await serialize(await parse(text, 'nt'), 'longturtle', { prefixes: PREFIXES });
    assert.match(
      out,
      /^PREFIX ex: <http:\/\/example.org\/>\n\n_:c14n(\d)\n {4}ex:next\n {8}\[\n {12}ex:next _:c14n\1 ;\n {8}\] ;\n\.\n$/,
    );
    await assertIsomorphic(await parse(out, 'turtle'), await parse(text, 'nt'), 'cycle');
  });

  it('writes BASE and IRIs under it relative, others in full', async () => {
    const text = `
<http://example.org/doc/item1> <http://other.org/p> <http://example.org/doc/item2> .
<http://example.org/doc/item1> <http://other.org/p> "x"^^<http://example.org/doc/dt> .
`;
    const expected = `BASE <http://example.org/doc/>

<item1>
    <http://other.org/p>
        <item2> ,
        "x"^^<http://example.org/doc/dt> ;
.
`;
    const out = await serialize(await parse(text, 'nt'), 'longturtle', { base: 'http://example.org/doc/' });
    assert.equal(out, expected);
  });

  it('writes an empty list as () and escapes strings like Turtle', async () => {
    const text = `<http://example.org/s> <http://example.org/p> <${RDF}nil> .
<http://example.org/s> <http://example.org/q> "say \\"hi\\"\\nbye" .
`;
    const expected = `PREFIX ex: <http://example.org/>

ex:s
    ex:p () ;
    ex:q "say \\"hi\\"\\nbye" ;
.
`;
    assert.equal(await serialize(await parse(text, 'nt'), 'longturtle', { prefixes: PREFIXES }), expected);
  });

  it('writes nothing for an empty graph', async () => {
    assert.equal(await serialize([], 'longturtle', { prefixes: PREFIXES }), '');
  });
});
