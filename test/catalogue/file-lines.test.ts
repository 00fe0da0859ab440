// A page of a stored file's lines (lib/catalogue/file-lines.ts): numbered from 1, CRLF read as a
// line break, a last line without its break still a line, a long line cut with what was left
// out counted, a file that is not UTF-8 read as windows-1252.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { LINE_CHARACTER_LIMIT, fileLines } from '../../lib/catalogue/file-lines.ts';

const dir = mkdtempSync(join(tmpdir(), 'labld-lines-'));
after(() => rmSync(dir, { recursive: true, force: true }));
function file(name: string, bytes: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

test('pages of lines with their numbers; CRLF and a last line without a break', async () => {
  const path = file('a.txt', 'one\r\ntwo\nthree\r\nfour\nfive');
  const first = await fileLines(path, 1, 2);
  assert.deepEqual(first.lines, [
    { number: 1, text: 'one' },
    { number: 2, text: 'two' },
  ]);
  assert.equal(first.total, 5);
  assert.deepEqual((await fileLines(path, 3, 2)).lines, [{ number: 5, text: 'five' }]);
  assert.deepEqual((await fileLines(path, 4, 2)).lines, []);
});

test('an empty file has no lines; a file ending with a break has no empty last line', async () => {
  assert.equal((await fileLines(file('empty.txt', ''), 1)).total, 0);
  assert.equal((await fileLines(file('ends.txt', 'a\nb\n'), 1)).total, 2);
});

test('a long line is cut, and how much was left out is told', async () => {
  const long = 'x'.repeat(LINE_CHARACTER_LIMIT + 1234);
  const [line] = (await fileLines(file('long.json', `${long}\nnext`), 1)).lines;
  assert.equal(line?.text.length, LINE_CHARACTER_LIMIT);
  assert.equal(line?.cut, 1234);
});

test('a file that is not UTF-8 is read as windows-1252', async () => {
  const page = await fileLines(file('latin.csv', Buffer.from('Prüfzeit;Kraft\n', 'latin1')), 1);
  assert.equal(page.encoding, 'windows-1252');
  assert.equal(page.lines[0]?.text, 'Prüfzeit;Kraft');
});
