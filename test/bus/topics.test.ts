import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadTopics, parseDuration, TopicsFileError } from '../../lib/bus/topics.ts';
import { tempDir } from '../support/temp.ts';

function catalogDir(yamlText: string, schemas: string[] = ['a.schema.json']): string {
  const dir = tempDir('labld-topics-');
  mkdirSync(join(dir, 'schemas'));
  for (const s of schemas) writeFileSync(join(dir, 'schemas', s), '{}');
  writeFileSync(join(dir, 'topics.yaml'), yamlText);
  return join(dir, 'topics.yaml');
}

test('the product topics.yaml loads: every group reads one topic, every dead letter is declared', () => {
  const catalog = loadTopics('topics.yaml');
  for (const group of catalog.groups()) assert.ok(catalog.topicReadBy(group).name);
  for (const t of catalog.all()) if (t.deadLetter) assert.ok(catalog.topic(t.deadLetter));
  assert.match(catalog.replyTopicFor('gw-1'), /\.gw-1$/);
  assert.deepEqual(catalog.topic(catalog.replyTopicFor('gw-1')).perInstance, true);
});

test('a duplicate topic name is refused, naming the entry', () => {
  const file = catalogDir(
    'topics:\n  - {name: t1, schema: a.schema.json}\n  - {name: t1, schema: a.schema.json}\n',
  );
  assert.throws(
    () => loadTopics(file),
    (e: unknown) => e instanceof TopicsFileError && /topics\[1\] \(t1\): duplicate/.test(e.message),
  );
});

test('an unknown schema file is refused, naming the file', () => {
  const file = catalogDir('topics:\n  - {name: t1, schema: missing.schema.json}\n');
  assert.throws(() => loadTopics(file), /unknown schema file missing\.schema\.json/);
});

test('a dead-letter topic that is not declared is refused', () => {
  const file = catalogDir('topics:\n  - {name: t1, schema: a.schema.json, dead_letter: nowhere}\n');
  assert.throws(() => loadTopics(file), /dead_letter nowhere is not a declared topic/);
});

test('a misspelt field or a bad value is refused with its path', () => {
  assert.throws(
    () => loadTopics(catalogDir('topics:\n  - {name: t1, schema: a.schema.json, partiton: 3}\n')),
    /must NOT have additional properties/,
  );
  assert.throws(
    () => loadTopics(catalogDir('topics:\n  - {name: t1, schema: a.schema.json, partitions: 0}\n')),
    /\/topics\/0\/partitions/,
  );
  assert.throws(
    () => loadTopics(catalogDir('topics:\n  - {name: t1, schema: a.schema.json, retention: soon}\n')),
    /retention not a duration/,
  );
  assert.throws(() => loadTopics(catalogDir(': : :')), /cannot read/);
});

test('a group may read only one topic', () => {
  const file = catalogDir(
    'topics:\n  - {name: t1, schema: a.schema.json, groups: [g]}\n  - {name: t2, schema: a.schema.json, groups: [g]}\n',
  );
  assert.throws(() => loadTopics(file), /group g reads more than one topic/);
});

test('durations', () => {
  assert.equal(parseDuration('7d'), 7 * 86_400_000);
  assert.equal(parseDuration('500ms'), 500);
  assert.equal(parseDuration('forever'), Number.POSITIVE_INFINITY);
  assert.throws(() => parseDuration('1w'));
});

test('concurrency: per topic, from the defaults, else 1; request topics of the product take several', () => {
  const file = catalogDir(
    'defaults: {concurrency: 2}\ntopics:\n  - {name: t1, schema: a.schema.json}\n' +
      '  - {name: t2, schema: a.schema.json, concurrency: 5}\n',
  );
  const catalog = loadTopics(file);
  assert.deepEqual(
    catalog.all().map((t) => t.concurrency),
    [2, 5],
  );
  assert.equal(
    loadTopics(catalogDir('topics:\n  - {name: t1, schema: a.schema.json}\n')).topic('t1').concurrency,
    1,
  );
  assert.throws(
    () => loadTopics(catalogDir('topics:\n  - {name: t1, schema: a.schema.json, concurrency: 0}\n')),
    /\/topics\/0\/concurrency/,
  );
  const product = loadTopics('topics.yaml');
  // Request topics take several; an event topic (the chain's and the load's, keyed by dataset)
  // keeps one key's messages in order: 1 at a time.
  for (const group of product.groups()) {
    const topic = product.topicReadBy(group);
    if (topic.key === 'request id') assert.ok(topic.concurrency > 1, group);
    else assert.equal(topic.concurrency, 1, group);
  }
});
