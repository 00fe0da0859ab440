// XML sources (XPath reference formulation): iteration, attribute / text / element values,
// several values per reference, namespaces, and the errors a user can cause.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runRml } from '../../lib/rml/index.ts';

const XML = `<?xml version="1.0"?>
<lab xmlns:m="http://example.org/m">
  <sample id="s1"><name>Steel</name><m:force unit="N">12</m:force><tag>a</tag><tag>b</tag></sample>
  <sample id="s2"><name><![CDATA[Al & Cu]]></name><m:force unit="kN">3</m:force></sample>
</lab>`;

function mapping(formulation: string, iterator: string, poms: string): string {
  return `@prefix rml: <http://w3id.org/rml/> .
@prefix ex: <http://ex.com/> .
<#TM> rml:logicalSource [ rml:source [ a rml:RelativePathSource; rml:path "lab.xml" ];
    rml:referenceFormulation ${formulation}; rml:iterator "${iterator}" ];
  rml:subjectMap [ rml:template "http://ex.com/{@id}" ];
  ${poms} .`;
}

const run = (turtle: string, xml = XML) => runRml(turtle, { sources: { 'lab.xml': xml } });
const lines = (nquads: string) => nquads.split('\n').filter(Boolean).sort();

test('attributes, element text, CDATA and several values per reference', async () => {
  const { nquads } = await run(
    mapping(
      'rml:XPath',
      '/lab/sample',
      'rml:predicateObjectMap [ rml:predicate ex:name; rml:objectMap [ rml:reference "name/text()" ] ], ' +
        '[ rml:predicate ex:tag; rml:objectMap [ rml:reference "tag" ] ]',
    ),
  );
  assert.deepEqual(lines(nquads), [
    '<http://ex.com/s1> <http://ex.com/name> "Steel" .',
    '<http://ex.com/s1> <http://ex.com/tag> "a" .',
    '<http://ex.com/s1> <http://ex.com/tag> "b" .',
    '<http://ex.com/s2> <http://ex.com/name> "Al & Cu" .',
  ]);
});

test('namespaces from a described XPath reference formulation; string-valued expressions', async () => {
  const formulation =
    '[ a rml:XPathReferenceFormulation; rml:namespace [ rml:namespacePrefix "m"; rml:namespaceURL "http://example.org/m" ] ]';
  const { nquads } = await run(
    mapping(
      formulation,
      "//sample[m:force/@unit = 'N']",
      'rml:predicateObjectMap [ rml:predicate ex:force; rml:objectMap [ rml:reference "concat(m:force, \' \', m:force/@unit)" ] ]',
    ),
  );
  assert.deepEqual(lines(nquads), ['<http://ex.com/s1> <http://ex.com/force> "12 N" .']);
});

test('errors: malformed XML, invalid XPath, an undeclared prefix', async () => {
  const plain = mapping(
    'rml:XPath',
    '/lab/sample',
    'rml:predicateObjectMap [ rml:predicate ex:name; rml:objectMap [ rml:reference "name" ] ]',
  );
  await assert.rejects(run(plain, '<lab><sample id="x"></lab>'), /not well-formed XML/);
  await assert.rejects(run(plain.replace('/lab/sample', '/lab/[')), {
    kind: 'invalid',
    message: 'Triples map "TM": rml:iterator "/lab/[" is not valid XPath 1.0',
  });
  await assert.rejects(run(plain.replace('/lab/sample', '//q:force')), {
    kind: 'invalid',
    message:
      'Triples map "TM": rml:iterator "//q:force" uses the prefix "q", which no rml:namespace of the logical source declares',
  });
  await assert.rejects(run(plain.replace('"name"', '"name[1"')), {
    kind: 'invalid',
    message: 'Triples map "TM": rml:reference "name[1" is not valid XPath 1.0',
  });
  // Prefixes inside string literals and axes (child::) are not QNames.
  const axis = plain.replace('"name"', `"child::name[. != 'a:b']"`);
  await assert.doesNotReject(run(axis, '<lab><sample><name>n</name></sample></lab>'));
});
