// A JSONPath the engine cannot read names the triples map and the field it was written in,
// with what is wrong and where: no parser internals.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runRml } from '../../lib/rml/index.ts';

const mapping = (iterator: string, object: string) => `@prefix rml: <http://w3id.org/rml/> .
<#People> a rml:TriplesMap;
  rml:logicalSource [ rml:source [ a rml:RelativePathSource; rml:path "d.json" ];
    rml:referenceFormulation rml:JSONPath; rml:iterator "${iterator}" ];
  rml:subjectMap [ rml:template "http://x/{b}" ];
  rml:predicateObjectMap [ rml:predicate <http://x/p>; rml:objectMap [ ${object} ] ] .`;

const run = (turtle: string) => runRml(turtle, { sources: { 'd.json': '{"a":[{"b":1}]}' } });

test('an iterator that is not JSONPath names the triples map and rml:iterator', async () => {
  await assert.rejects(run(mapping('$.a[', 'rml:reference "b"')), {
    kind: 'invalid',
    message:
      'Triples map "People": rml:iterator "$.a[" is not valid JSONPath: a name, index, slice, "*" or filter expected (at position 4)',
  });
});

test('a reference names rml:reference, at its position as written (not as $.-prefixed)', async () => {
  await assert.rejects(run(mapping('$.a[*]', 'rml:reference "b[?(@ =="')), {
    kind: 'invalid',
    message:
      'Triples map "People": rml:reference "b[?(@ ==" is not valid JSONPath: a filter operand expected (at position 8)',
  });
});

test('a reference inside a template names the template and the reference', async () => {
  await assert.rejects(run(mapping('$.a[*]', 'rml:template "v{a[}"')), {
    kind: 'invalid',
    message:
      'Triples map "People": rml:template "v{a[}", reference "a[" is not valid JSONPath: a name, index, slice, "*" or filter expected (at position 2)',
  });
});
