// The chain's event contracts: each chain topic reads the schema file generated from
// lib/contracts/chain.ts, in step, with a dead-letter topic; a payload that does not fit is
// refused at publish naming the field.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { loadTopics } from '../../lib/bus/topics.ts';
import { chainSchemaFiles, CHAIN_STEP_FILE, RESOURCE_EVENT_FILE } from '../../lib/contracts/chain.ts';
import { CHAIN_CONSUMERS } from '../../consumers/chain-steps.ts';

const schemas = new URL('../../schemas/', import.meta.url).pathname;

test('the chain schema files are the contracts written out', () => {
  for (const [file, text] of chainSchemaFiles()) {
    assert.deepEqual(
      JSON.parse(readFileSync(`${schemas}${file}`, 'utf8')),
      JSON.parse(text),
      `${file} is stale: run node tools/contracts.ts`,
    );
  }
});

test('every chain consumer group reads one topic keyed by dataset, with a dead letter, in order', () => {
  const catalog = loadTopics(new URL('../../topics.yaml', import.meta.url).pathname);
  const schemaOf = new Map([
    ['chain-annotate', RESOURCE_EVENT_FILE],
    ['chain-forget', RESOURCE_EVENT_FILE],
  ]);
  const collectors = CHAIN_CONSUMERS.filter(({ group }) => group.endsWith('-dead-letters'));
  for (const { group } of CHAIN_CONSUMERS.filter((c) => !collectors.includes(c))) {
    const topic = catalog.topicReadBy(group);
    assert.equal(topic.key, 'dataset id', group);
    assert.equal(topic.concurrency, 1, group);
    assert.ok(topic.deadLetter, group);
    assert.equal(topic.schema, schemaOf.get(group) ?? CHAIN_STEP_FILE, group);
    // Its dead letters are collected for the pages by `<group>-dead-letters`, which reads nothing else.
    assert.equal(catalog.topicReadBy(`${group}-dead-letters`).name, topic.deadLetter, group);
  }
  assert.equal(collectors.length, CHAIN_CONSUMERS.length / 2);
});
