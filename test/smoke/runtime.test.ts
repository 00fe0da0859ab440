import { test } from 'node:test';
import assert from 'node:assert/strict';

test('tests run on the pinned Node (>= 22.18, type stripping on)', () => {
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  assert.ok(major > 22 || (major === 22 && minor >= 18), `node ${process.versions.node}`);
});
