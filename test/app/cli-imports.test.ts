// `labld rml` loads only what a run needs: not the bus, the catalogue store (the user commands')
// or the HTTP client (mappings with URL sources) — together most of the CLI's start-up CPU.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { tempDir } from '../support/temp.ts';

const dir = tempDir('labld-cli-imports-');
after(() => rmSync(dir, { recursive: true, force: true }));

// Runs bin/labld.js in a child that records every module it loads (a resolve hook).
const RECORDER = `
import { registerHooks } from 'node:module';
const loaded = [];
registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); loaded.push(r.url); return r; } });
process.argv = [process.execPath, ${JSON.stringify(new URL('../../bin/labld.js', import.meta.url).pathname)}, ...JSON.parse(process.env.ARGS)];
await import(process.argv[1]);
process.stdout.write(JSON.stringify(loaded));
`;

test('labld rml imports neither the bus, nor the catalogue store, nor the HTTP client', () => {
  writeFileSync(join(dir, 'people.csv'), 'id,name\n1,Ada\n');
  writeFileSync(
    join(dir, 'map.ttl'),
    `@prefix rr: <http://www.w3.org/ns/r2rml#> . @prefix rml: <http://semweb.mmlab.be/ns/rml#> .
@prefix ql: <http://semweb.mmlab.be/ns/ql#> .
<#m> rml:logicalSource [ rml:source "people.csv"; rml:referenceFormulation ql:CSV ];
  rr:subjectMap [ rr:template "http://ex.com/{id}" ];
  rr:predicateObjectMap [ rr:predicate <http://ex.com/name>; rr:objectMap [ rml:reference "name" ] ] .
`,
  );
  const out = join(dir, 'out.nt');
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', RECORDER], {
    env: {
      ...process.env,
      LABLD_LOG_LEVEL: 'silent',
      ARGS: JSON.stringify(['rml', join(dir, 'map.ttl'), '--out', out, '--format', 'nt', '--quiet']),
    },
    encoding: 'utf8',
  });
  const loaded = JSON.parse(stdout) as string[];
  assert.ok(
    loaded.some((url) => url.endsWith('/lib/rml/run-file.ts')),
    'the run itself was loaded',
  );
  for (const heavy of ['/lib/bus/open.ts', '/lib/catalogue/store/open.ts', '/lib/fetch/guarded-fetch.ts']) {
    assert.deepEqual(
      loaded.filter((url) => url.endsWith(heavy)),
      [],
      `${heavy} is not loaded by labld rml`,
    );
  }
});
