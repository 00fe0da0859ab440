// The README and docs/ are part of the interface: the configuration table must list every
// setting the code reads, with the same default; the README's first screen is a newcomer's;
// every link stays inside the repository and leads somewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { settings } from '../../lib/process/config.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');
const documents = [
  'README.md',
  ...readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

test('docs/configuration.md lists every setting with its default', () => {
  const table = read('docs/configuration.md');
  for (const s of settings) {
    const cells = table
      .split('\n')
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .find((row) => row[1] === `\`${s.name}\``);
    assert.ok(cells, `docs/configuration.md has no row for ${s.name}`);
    const expected = s.default === '' ? '(empty)' : `\`${s.default}\``;
    assert.equal(cells[2], expected, `docs/configuration.md default of ${s.name}`);
  }
});

test("the README's first screen: the two commands, then the first user, then the walkthrough", () => {
  const lines = readme.split('\n');
  const at = (pattern: RegExp) => lines.findIndex((line) => pattern.test(line));
  assert.ok(
    at(/npm ci && npm start/) >= 0 && at(/npm ci && npm start/) < 20,
    'npm ci && npm start in the first 20 lines',
  );
  assert.ok(at(/^npm test/) >= 0 && at(/^npm test/) < 20, 'npm test in the first 20 lines');
  assert.ok(at(/npx labld user add/) > at(/npm ci && npm start/), 'then the first user');
  assert.ok(at(/^## Five minutes/) > at(/npx labld user add/), 'then the walkthrough');
  assert.ok(lines.length < 120, `the README is short (${lines.length} lines); the rest is in docs/`);
});

/** GitHub's anchor of a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');
}

function anchors(markdown: string): Set<string> {
  const found = new Set<string>();
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading) found.add(slug(heading[1]!));
  }
  return found;
}

test('every link of the README and docs/ stays inside the repository and leads to a file and heading that exist', () => {
  const problems: string[] = [];
  for (const document of documents) {
    const text = read(document).replace(/```[\s\S]*?```/g, '');
    for (const match of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (/^(https?:\/\/(localhost|127\.0\.0\.1)[:/]|mailto:)/.test(target)) continue;
      if (/^[a-z]+:/.test(target)) {
        problems.push(`${document}: ${target} points outside the repository`);
        continue;
      }
      const [path, anchor] = target.split('#') as [string, string | undefined];
      const file = path === '' ? document : normalize(join(dirname(document), path));
      if (relative(root, join(root, file)).startsWith('..')) {
        problems.push(`${document}: ${target} points outside the repository`);
        continue;
      }
      if (!existsSync(join(root, file))) {
        problems.push(`${document}: ${target}: no file ${file}`);
        continue;
      }
      if (anchor !== undefined && file.endsWith('.md') && !anchors(read(file)).has(anchor)) {
        problems.push(`${document}: ${target}: no heading #${anchor} in ${file}`);
      }
    }
  }
  assert.deepEqual(problems, []);
});
