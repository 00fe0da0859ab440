// The chain is declared once (lib/chain/pipeline.ts); topics.yaml's chain part must say the same:
// each step's group reads the topic of the event it consumes, with that event's contract, the
// step's retry policy and a dead-letter topic read by the step's collector; the step's next
// group's topic carries the contract the step publishes; and no chain topic is left over.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { loadTopics } from '../../lib/bus/topics.ts';
import {
  CHAIN_EVENTS,
  CHAIN_STEPS,
  FORGET,
  PIPELINE,
  deadLetterGroup,
  groupOfStep,
  stepEntry,
  type StepDeclaration,
} from '../../lib/chain/index.ts';
import { CHAIN_CONSUMERS } from '../../consumers/chain-steps.ts';

const catalog = loadTopics(fileURLToPath(new URL('../../topics.yaml', import.meta.url)));
const steps: readonly StepDeclaration[] = PIPELINE;

/** What topics.yaml says of the topic a group reads, and of that topic's dead-letter topic. */
function declared(group: string) {
  const topic = catalog.topicReadBy(group);
  assert.ok(topic.deadLetter, `${topic.name} has a dead-letter topic`);
  const deadLetter = catalog.topic(topic.deadLetter);
  return { topic, deadLetter };
}

test("each step's group reads its event's topic with the step's contract, retry policy and dead-letter collector", () => {
  const readers = [
    ...steps.map((s) => ({ group: groupOfStep(s.step), input: s.input, retry: s.retry })),
    { group: FORGET.group, input: FORGET.input, retry: FORGET.retry },
  ];
  for (const { group, input, retry } of readers) {
    const { topic, deadLetter } = declared(group);
    assert.equal(topic.schema, input, `${group}: the schema of ${topic.name}`);
    assert.equal(topic.key, 'dataset id', `${group}: one dataset's steps stay in order`);
    assert.equal(topic.maxAttempts, retry.maxAttempts, `${group}: max_attempts of ${topic.name}`);
    assert.equal(topic.backoffMs, retry.backoffMs, `${group}: backoff_ms of ${topic.name}`);
    assert.deepEqual(
      deadLetter.groups,
      [deadLetterGroup(group)],
      `${group}: the collector of ${deadLetter.name}`,
    );
  }
});

test("a step publishes onto its next step's topic the contract it declares, and the next step exists", () => {
  for (const s of steps) {
    if (s.next === undefined) continue;
    assert.equal(stepEntry(s.next).step, s.next);
    assert.equal(catalog.topicReadBy(groupOfStep(s.next)).schema, s.output, `${s.step} → ${s.next}`);
  }
  assert.equal(steps.filter((s) => s.next === undefined).length, 1, 'the chain has one end');
});

test('topics.yaml has no chain topic the pipeline does not declare', () => {
  const groups = new Set(Object.values(CHAIN_EVENTS).flatMap((g) => [g, deadLetterGroup(g)]));
  const chainTopics = catalog.all().filter((t) => t.name.startsWith('labld.chain.'));
  assert.equal(chainTopics.length, 2 * Object.keys(CHAIN_EVENTS).length);
  for (const topic of chainTopics) {
    assert.ok(
      topic.groups.length === 1 && groups.has(topic.groups[0]!),
      `${topic.name} is read by a group of the pipeline (reads: ${topic.groups.join(', ')})`,
    );
  }
});

test('the steps, events, consumers and collectors are the pipeline’s, in its order', () => {
  assert.deepEqual(
    CHAIN_STEPS,
    steps.map((s) => s.step),
  );
  assert.deepEqual(
    CHAIN_CONSUMERS.map((c) => c.group),
    [
      ...steps.map((s) => groupOfStep(s.step)),
      FORGET.group,
      ...[...steps.map((s) => groupOfStep(s.step)), FORGET.group].map(deadLetterGroup),
    ],
  );
});

test("each step's domain function is exported where the pipeline says", async () => {
  for (const s of steps) {
    const [path, name] = s.domain.split('#') as [string, string];
    const module = (await import(new URL(`../../${path}`, import.meta.url).href)) as Record<string, unknown>;
    assert.equal(typeof module[name], 'function', s.domain);
  }
});
