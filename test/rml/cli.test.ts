// `labld rml` as a user runs it: a spawned process, files on disk, exit codes and stderr.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { PassThrough } from 'node:stream';
import { Parser } from 'n3';
import { progressReporter } from '../../app/rml.ts';
import { startFileServer } from '../support/file-server.ts';
import { tempDir } from '../support/temp.ts';

const BIN = new URL('../../bin/labld.js', import.meta.url).pathname;
const dir = tempDir('labld-rml-cli-');
after(() => rmSync(dir, { recursive: true, force: true }));

function labld(
  ...args: (string | Record<string, string>)[]
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = args.find((a) => typeof a === 'object');
  const argv = args.filter((a) => typeof a === 'string');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'rml', ...argv], {
      env: { ...process.env, LABLD_LOG_LEVEL: 'silent', LABLD_FETCH_ALLOW: '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const YARRRML = `prefixes:
  ex: http://ex.com/
mappings:
  person:
    sources: [[people.csv~csv]]
    s: ex:$(id)
    po:
      - [ex:name, $(name)]
      - p: ex:knows
        o: {value: ex:$(friend), type: iri}
        g: ex:friends
`;
writeFileSync(join(dir, 'people.csv'), 'id,name,friend\n1,Ada,2\n2,Bob,1\n');
writeFileSync(join(dir, 'map.yml'), YARRRML);

test('YARRRML mapping to N-Quads on stdout; the summary goes to stderr', async () => {
  const { code, stdout, stderr } = await labld(join(dir, 'map.yml'));
  assert.equal(code, 0, stderr);
  assert.equal(
    stdout.split('\n').filter(Boolean).sort().join('\n'),
    [
      '<http://ex.com/1> <http://ex.com/knows> <http://ex.com/2> <http://ex.com/friends> .',
      '<http://ex.com/1> <http://ex.com/name> "Ada" .',
      '<http://ex.com/2> <http://ex.com/knows> <http://ex.com/1> <http://ex.com/friends> .',
      '<http://ex.com/2> <http://ex.com/name> "Bob" .',
    ].join('\n'),
  );
  assert.match(stderr, /^labld rml: 4 triples to stdout in \d+\.\d s\n$/);
});

test('--out with --format nt drops graph names; --format turtle goes through the formats module', async () => {
  const nt = join(dir, 'out.nt');
  assert.equal((await labld(join(dir, 'map.yml'), '--out', nt, '--format', 'nt', '--quiet')).code, 0);
  const lines = readFileSync(nt, 'utf8').split('\n').filter(Boolean);
  assert.equal(lines.length, 4);
  assert.ok(lines.every((line) => /^(<[^>]+> ){2}(<[^>]+>|"[^"]*") \.$/.test(line)));

  const ttl = join(dir, 'out.ttl'); // format from the extension
  const run = await labld(join(dir, 'map.yml'), '-o', ttl);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(new Parser({ format: 'text/turtle' }).parse(readFileSync(ttl, 'utf8')).length, 4);
});

test('a URL source goes through the guarded fetch: refused on loopback unless allowed', async () => {
  const server = await startFileServer();
  try {
    const url = server.put('/people.csv', 'id,name,friend\n7,Eve,7\n');
    writeFileSync(join(dir, 'url.yml'), YARRRML.replace('[[people.csv~csv]]', `[['${url}~csv']]`));
    const refused = await labld(join(dir, 'url.yml'), '--quiet');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^labld: rml:source: .*loopback/);
    const allowed = await labld(join(dir, 'url.yml'), '--quiet', { LABLD_FETCH_ALLOW: '127.0.0.1' });
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, /<http:\/\/ex\.com\/7> <http:\/\/ex\.com\/name> "Eve" \./);
  } finally {
    await server.stop();
  }
});

test('errors: a clear message and a non-zero exit, no half-written output', async () => {
  const missing = await labld(join(dir, 'nope.yml'));
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /the mapping file .*nope\.yml does not exist/);

  writeFileSync(join(dir, 'bad.ttl'), '@prefix rml: <http://w3id.org/rml/> .\n<#TM> rml:logicalSource [');
  const bad = await labld(join(dir, 'bad.ttl'), '--out', join(dir, 'bad.nq'));
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /The mapping is not valid Turtle/);
  assert.ok(!existsSync(join(dir, 'bad.nq')));

  writeFileSync(join(dir, 'gone.yml'), YARRRML.replace('people.csv', 'gone.csv'));
  const gone = await labld(join(dir, 'gone.yml'));
  assert.equal(gone.code, 1);
  assert.match(gone.stderr, /Cannot read the source gone\.csv/);

  const usage = await labld();
  assert.equal(usage.code, 2);
  assert.match(usage.stderr, /rml needs exactly one MAPPING file\n\nusage: labld/);
  const format = await labld(join(dir, 'map.yml'), '--format', 'csv');
  assert.equal(format.code, 2);
  assert.match(format.stderr, /--format must be one of/);
});

test('progress: at most one line a second on stderr, none for short runs', () => {
  let clock = 0;
  const lines: string[] = [];
  const stderr = new PassThrough();
  stderr.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  const reporter = progressReporter(stderr, false, () => clock);
  reporter.progress(10); // within the first second: silent
  clock = 1500;
  reporter.progress(250_000);
  clock = 1800;
  reporter.progress(300_000); // less than a second since the last line
  clock = 2600;
  reporter.progress(1_200_000);
  reporter.done(24_000_000, 'out.nt');
  assert.deepEqual(lines, [
    'labld rml: 250,000 records read, 2 s\n',
    'labld rml: 1,200,000 records read, 3 s\n',
    'labld rml: 24,000,000 triples to out.nt in 2.6 s\n',
  ]);
});

test('one invalid-IRI cell among 100,000 rows: every other triple is written, exit 0, the skipped term reported; --strict exits 1', async () => {
  const rows = ['id,name'];
  for (let i = 0; i < 100_000; i++) rows.push(i === 54_321 ? `${i},Juan Daniel` : `${i},n${i}`);
  writeFileSync(join(dir, 'big.csv'), `${rows.join('\n')}\n`);
  writeFileSync(
    join(dir, 'big.ttl'),
    `@prefix rr: <http://www.w3.org/ns/r2rml#> .
@prefix rml: <http://semweb.mmlab.be/ns/rml#> .
@prefix ql: <http://semweb.mmlab.be/ns/ql#> .
@base <http://example.com/base/> .
<People> rml:logicalSource [ rml:source "big.csv"; rml:referenceFormulation ql:CSV ];
  rr:subjectMap [ rr:template "http://example.com/person/{id}" ];
  rr:predicateObjectMap [ rr:predicate <http://example.com/page>; rr:objectMap [ rml:reference "name"; rr:termType rr:IRI ] ] .
`,
  );
  const out = join(dir, 'big.nt');
  const { code, stderr } = await labld(join(dir, 'big.ttl'), '--out', out, '--quiet');
  assert.equal(code, 0, stderr);
  const lines = readFileSync(out, 'utf8').split('\n').filter(Boolean);
  assert.equal(lines.length, 99_999);
  assert.ok(
    lines.includes('<http://example.com/person/0> <http://example.com/page> <http://example.com/base/n0> .'),
  );
  assert.ok(!lines.some((line) => line.startsWith('<http://example.com/person/54321>')));
  assert.match(stderr, /rule People: 1 term\(s\) skipped on data errors/);
  assert.match(
    stderr,
    /"http:\/\/example\.com\/base\/Juan Daniel" \(from reference "name"\) is not a valid IRI/,
  );

  const strict = await labld(join(dir, 'big.ttl'), '--out', out, '--strict');
  assert.equal(strict.code, 1);
  assert.match(strict.stderr, /Juan Daniel.*is not a valid IRI/);
  assert.ok(!existsSync(out), 'no half-written graph is left');
});
