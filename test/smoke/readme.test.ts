// The README is part of the interface: its configuration table must list every setting the
// code reads, with the same default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { settings } from '../../lib/process/config.ts';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

test('README configuration table lists every setting with its default', () => {
  for (const s of settings) {
    const cells = readme
      .split('\n')
      .map((line) => line.split('|').map((cell) => cell.trim()))
      .find((row) => row[1] === `\`${s.name}\``);
    assert.ok(cells, `README has no row for ${s.name}`);
    const expected = s.default === '' ? '(empty)' : `\`${s.default}\``;
    assert.equal(cells[2], expected, `README default of ${s.name}`);
  }
});

test('README starts with the two commands', () => {
  const firstScreen = readme.split('\n').slice(0, 30).join('\n');
  assert.match(firstScreen, /npm ci && npm start/);
  assert.match(firstScreen, /npm test/);
});
