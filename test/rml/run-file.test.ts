// Running mapping files: YARRRML or RML Turtle, sources beside the mapping, N-Triples out.
import assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { isYarrrml, resolveYarrrmlBase, runMappingFile } from '../../lib/rml/run-file.ts';
import { tempDir } from '../support/temp.ts';

async function run(files: Record<string, string>, mapping: string) {
  const dir = tempDir('labld-rml-');
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const out = new PassThrough();
    const chunks: string[] = [];
    out.on('data', (c: Buffer) => chunks.push(c.toString()));
    const progress: number[] = [];
    const result = await runMappingFile(join(dir, mapping), out, { progress: (n) => progress.push(n) });
    return { text: chunks.join(''), result, progress };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("a YARRRML file with base '#' and a CSV beside it", async () => {
  const yarrrml = `prefixes:\n  ex: http://ex.com/\nbase: '#'\nmappings:\n  person:\n    sources: [[people.csv~csv]]\n    s: P_$(id)\n    po:\n      - [ex:name, $(name)]\n`;
  const { text, result, progress } = await run(
    { 'people.csv': 'id,name\n1,Ada\n', 'map.yaml': yarrrml },
    'map.yaml',
  );
  assert.match(text, /^<file:\/\/\/.*\/map\.yaml#P_1> <http:\/\/ex\.com\/name> "Ada" \.\n$/);
  assert.equal(result.statistics[0]!.name, 'person');
  assert.deepEqual(progress, [1]);
});

test('an RML Turtle file; a missing source is a clear error', async () => {
  const rml = `@prefix rml: <http://w3id.org/rml/> .
<#TM> rml:logicalSource [ rml:source [ rml:path "nope.csv" ]; rml:referenceFormulation rml:CSV ];
  rml:subjectMap [ rml:template "http://ex.com/{id}" ] .`;
  await assert.rejects(run({ 'map.ttl': rml }, 'map.ttl'), /Cannot read the source nope\.csv/);
});

test('mapping kinds and bases', () => {
  assert.ok(isYarrrml('x.yml', ''));
  assert.ok(!isYarrrml('x.ttl', 'mappings:'));
  assert.ok(isYarrrml('x', 'prefixes: {}\nmappings:\n'));
  assert.equal(resolveYarrrmlBase('#', 'http://d/out.ttl'), 'http://d/out.ttl#');
  assert.equal(resolveYarrrmlBase('http://b/', 'http://d/out.ttl'), 'http://b/');
});
