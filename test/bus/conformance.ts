// The Bus conformance suite: written against the contract only, run once per transport.
// A transport's test file supplies an environment that hands out fresh, isolated namespaces.
import { describe, test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Bus, Message } from '../../lib/bus/contract.ts';
import { openBus, catalogOf, type BusConfig } from '../../lib/bus/open.ts';
import { DLQ_HEADERS } from '../../lib/bus/dead-letter.ts';
import { DomainError, TimeoutError } from '../../lib/process/errors.ts';
import { SchemaViolation } from '../../lib/bus/payloads.ts';
import { busDeadLettered, busLateReplies } from '../../lib/process/metrics.ts';
import { deadlineOf } from '../../lib/bus/bus.ts';
import { waitFor, sleep } from '../support/wait.ts';
import { windowConformance } from './conformance-window.ts';
import { retryConformance } from './conformance-retries.ts';
import { tempDir } from '../support/temp.ts';

export const FIXTURES = new URL('./fixtures/', import.meta.url).pathname;
export const TOPICS = join(FIXTURES, 'topics.yaml');
/** labld's own topics, whose request schemas are the operations' contracts (lib/contracts). */
export const LABLD_TOPICS = new URL('../../topics.yaml', import.meta.url).pathname;
/** Same topic names, permissive schemas: a producer that does not check payloads. */
export const LENIENT_TOPICS = join(FIXTURES, 'lenient', 'topics.yaml');

const execFileAsync = promisify(execFile);
const LABLD = new URL('../../bin/labld.js', import.meta.url).pathname;

export const EVENTS = 'conformance.events';
export const EVENTS_DLQ = 'conformance.events.dead-letter';
export const REQUESTS = 'conformance.requests';
export const REQUESTS_DLQ = 'conformance.requests.dead-letter';

export interface Event {
  entity: string;
  seq: number;
  note?: string;
}

export interface Namespace {
  connect(options?: { clientId?: string; topicsFile?: string }): Promise<Bus>;
  /** Configuration for a child process that opens a bus on this namespace. */
  childConfig(): BusConfig;
  /** Close every bus handed out that is still open. */
  dispose(): Promise<void>;
}

/** The namespace of one bus configuration; `cleanup` runs after its buses are closed. */
export function namespaceOf(config: BusConfig, cleanup: () => Promise<void> = async () => {}): Namespace {
  const open: Bus[] = [];
  return {
    async connect(options = {}) {
      const c = { ...config, clientId: options.clientId, topicsFile: options.topicsFile ?? TOPICS };
      const bus = await openBus(c, catalogOf(c));
      open.push(bus);
      return bus;
    },
    childConfig: () => config,
    async dispose() {
      await Promise.all(open.map((bus) => bus.close()));
      await cleanup();
    },
  };
}

export interface ConformanceEnvironment {
  name: string;
  fresh(): Promise<Namespace>;
}

let groupCounter = 0;
const uniqueGroup = (label: string) => `${label}-${process.pid}-${++groupCounter}`;

function collector<T>() {
  const seen: Message<T>[] = [];
  return { seen, handler: async (m: Message<T>) => void seen.push(m) };
}

export function runChild(config: BusConfig, args: string[], readyLine: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [new URL('./child.ts', import.meta.url).pathname, ...args], {
    env: { ...process.env, LABLD_TEST_BUS: JSON.stringify(config), LABLD_LOG_LEVEL: 'error' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes(readyLine)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`child exited (${code}) before "${readyLine}"`)));
  });
}

/** Run the `labld` command line on the bus `config` describes (as environment variables); its stdout. */
export async function labldCommand(config: BusConfig, args: string[]): Promise<string> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    LABLD_TRANSPORT: config.transport,
    LABLD_DATA: config.dataDir,
    LABLD_TOPICS: config.topicsFile,
    KAFKA_BROKERS: config.kafka?.brokers.join(',') ?? '',
    LABLD_KAFKA_TOPIC_PREFIX: config.kafka?.topicPrefix ?? '',
    LABLD_SCHEMA_REGISTRY_URL: config.kafka?.registryUrl ?? '',
    LABLD_LOG_LEVEL: 'error',
  };
  const { stdout } = await execFileAsync(process.execPath, [LABLD, ...args], { env });
  return stdout;
}

export async function kill9(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

export function busConformance(env: ConformanceEnvironment): void {
  describe(`Bus conformance: ${env.name}`, () => {
    let ns: Namespace;
    const fresh = async () => (ns = await env.fresh());
    afterEach(async () => ns?.dispose());

    test('messages with the same key arrive in the order they were published', async () => {
      const bus = await (await fresh()).connect();
      const { seen, handler } = collector<Event>();
      await bus.subscribe(EVENTS, uniqueGroup('order'), handler);
      const entities = ['a', 'b', 'c', 'd', 'e'];
      for (let seq = 0; seq < 40; seq += 1) {
        const entity = entities[seq % entities.length]!;
        await bus.publish(EVENTS, { entity, seq }, { key: entity });
      }
      await waitFor('40 messages', () => seen.length === 40);
      for (const entity of entities) {
        const order = seen.filter((m) => m.value.entity === entity).map((m) => m.value.seq);
        assert.deepEqual(
          order,
          [...order].sort((x, y) => x - y),
          `order of key ${entity}`,
        );
        assert.equal(new Set(seen.filter((m) => m.value.entity === entity).map((m) => m.partition)).size, 1);
      }
    });

    test('two members of a group share the partitions; a third takes over when one stops', async () => {
      const bus = await (await fresh()).connect();
      const group = uniqueGroup('share');
      const a = collector<Event>();
      const b = collector<Event>();
      const c = collector<Event>();
      const subA = await bus.subscribe(EVENTS, group, a.handler);
      const subB = await bus.subscribe(EVENTS, group, b.handler);
      await waitFor('a balanced assignment', () => subA.assignment().length + subB.assignment().length === 4);
      assert.equal(subA.assignment().length, 2);
      assert.deepEqual([...subA.assignment(), ...subB.assignment()].sort(), [0, 1, 2, 3]);
      for (let seq = 0; seq < 20; seq += 1)
        await bus.publish(EVENTS, { entity: `e${seq}`, seq }, { key: `e${seq}` });
      await waitFor('20 messages', () => a.seen.length + b.seen.length === 20);
      assert.ok(a.seen.length > 0 && b.seen.length > 0, 'both members received work');

      await subA.close();
      const subC = await bus.subscribe(EVENTS, group, c.handler);
      await waitFor('reassignment', () => subB.assignment().length + subC.assignment().length === 4);
      for (let seq = 20; seq < 40; seq += 1)
        await bus.publish(EVENTS, { entity: `e${seq}`, seq }, { key: `e${seq}` });
      await waitFor('20 more', () => b.seen.length + c.seen.length === 40 - a.seen.length);
      assert.ok(c.seen.length > 0, 'the third member took over partitions');
      const all = [...a.seen, ...b.seen, ...c.seen].map((m) => m.value.seq).sort((x, y) => x - y);
      assert.deepEqual(
        all,
        Array.from({ length: 40 }, (_, i) => i),
        'each message handled exactly once',
      );
      await subB.close();
      await subC.close();
    });

    test('a message accepted before kill -9 is delivered after restart', async () => {
      await fresh();
      const child = await runChild(ns.childConfig(), ['publish', EVENTS, '-', '-'], 'published');
      await kill9(child);
      const bus = await ns.connect();
      const { seen, handler } = collector<Event>();
      await bus.subscribe(EVENTS, uniqueGroup('durable'), handler);
      await waitFor('the 5 messages published by the killed process', () => seen.length === 5);
      assert.deepEqual(
        seen.map((m) => m.value.seq),
        [0, 1, 2, 3, 4],
      );
    });

    test('a message handled but not committed when the process is killed is delivered again', async () => {
      await fresh();
      const group = uniqueGroup('redeliver');
      const first = await ns.connect();
      await first.publish(EVENTS, { entity: 'x', seq: 7 }, { key: 'x' });
      await first.close();
      const marker = join(tempDir('labld-marker-'), 'handled');
      const child = await runChild(ns.childConfig(), ['handle-and-hang', EVENTS, group, marker], 'handled');
      await kill9(child);
      assert.equal(readFileSync(marker, 'utf8'), '7\n', 'the child handled the message once');
      const bus = await ns.connect();
      const { seen, handler } = collector<Event>();
      await bus.subscribe(EVENTS, group, handler);
      await waitFor('redelivery', () => seen.length === 1);
      assert.equal(seen[0]!.value.seq, 7);
    });

    test('replay from an offset and from a timestamp re-delivers; refused while the group runs', async () => {
      const bus = await (await fresh()).connect();
      const group = uniqueGroup('replay');
      for (let seq = 0; seq < 3; seq += 1) await bus.publish(EVENTS, { entity: 'r', seq }, { key: 'r' });
      await sleep(20);
      const middle = Date.now();
      await sleep(20);
      for (let seq = 3; seq < 6; seq += 1) await bus.publish(EVENTS, { entity: 'r', seq }, { key: 'r' });

      const first = collector<Event>();
      const sub = await bus.subscribe(EVENTS, group, first.handler);
      await waitFor('first pass', () => first.seen.length === 6);
      await assert.rejects(bus.replay(EVENTS, group, { offset: 0 }), /running members/);
      await sub.close();

      await bus.replay(EVENTS, group, { offset: 0 });
      const again = collector<Event>();
      const sub2 = await bus.subscribe(EVENTS, group, again.handler);
      await waitFor('replay from offset 0', () => again.seen.length === 6);
      assert.deepEqual(
        again.seen.map((m) => m.value.seq),
        [0, 1, 2, 3, 4, 5],
      );
      await sub2.close();

      await bus.replay(EVENTS, group, { timestamp: middle });
      const later = collector<Event>();
      await bus.subscribe(EVENTS, group, later.handler);
      await waitFor('replay from the timestamp', () => later.seen.length === 3);
      await sleep(50);
      assert.deepEqual(
        later.seen.map((m) => m.value.seq),
        [3, 4, 5],
      );
    });

    test('`labld replay` moves a stopped group back, from an offset and from a time', async () => {
      let bus = await (await fresh()).connect();
      const group = uniqueGroup('cli-replay');
      for (let seq = 0; seq < 2; seq += 1) await bus.publish(EVENTS, { entity: 'c', seq }, { key: 'c' });
      await sleep(20);
      const middle = new Date().toISOString();
      await sleep(20);
      await bus.publish(EVENTS, { entity: 'c', seq: 2 }, { key: 'c' });
      const pass = async (expected: number[]) => {
        const { seen, handler } = collector<Event>();
        const sub = await bus.subscribe(EVENTS, group, handler);
        await waitFor(`${expected.length} messages`, () => seen.length >= expected.length);
        await sleep(50);
        await sub.close();
        assert.deepEqual(
          seen.map((m) => m.value.seq),
          expected,
        );
      };
      await pass([0, 1, 2]);
      // The command runs as its own process (the embedded bus's directory has one owner at a time).
      await bus.close();
      const fromOffset = await labldCommand(ns.childConfig(), [
        'replay',
        '--topic',
        EVENTS,
        '--group',
        group,
        '--from-offset',
        '1',
      ]);
      assert.match(fromOffset, /replays from \{"offset":1\}/);
      bus = await ns.connect();
      await pass([1, 2]);
      await bus.close();
      await labldCommand(ns.childConfig(), [
        'replay',
        '--topic',
        EVENTS,
        '--group',
        group,
        '--from-time',
        middle,
      ]);
      bus = await ns.connect();
      await pass([2]);
    });

    test('a failing message is retried with backoff, then dead-lettered with its headers and the error', async () => {
      const bus = await (await fresh()).connect();
      const attempts: number[] = [];
      await bus.subscribe<Event>(EVENTS, uniqueGroup('fail'), async () => {
        attempts.push(Date.now());
        throw new Error('disk on fire');
      });
      const dead = collector<unknown>();
      await bus.subscribe(EVENTS_DLQ, uniqueGroup('dlq-reader'), dead.handler);
      await bus.publish(
        EVENTS,
        { entity: 'f', seq: 1 },
        { key: 'f', headers: { 'x-correlation-id': 'corr-1' } },
      );
      await waitFor('the dead letter', () => dead.seen.length === 1);
      assert.equal(attempts.length, 3, 'max_attempts of the topic');
      // backoff_ms of the fixture topic is 10, doubled per retry: lower bounds only (a busy machine
      // may stretch any wait), less 1 ms of clock granularity.
      assert.ok(attempts[1]! - attempts[0]! >= 9, 'first retry waits backoff_ms');
      assert.ok(attempts[2]! - attempts[1]! >= 19, 'second retry waits twice backoff_ms');
      const letter = dead.seen[0]!;
      assert.deepEqual(letter.value, { entity: 'f', seq: 1 });
      assert.equal(letter.key, 'f');
      assert.equal(letter.headers['x-correlation-id'], 'corr-1');
      assert.match(letter.headers[DLQ_HEADERS.error]!, /disk on fire/);
      assert.equal(letter.headers[DLQ_HEADERS.topic], EVENTS);
      assert.equal(letter.headers[DLQ_HEADERS.attempts], '3');
    });

    test('a DomainError is not retried; a message that fails its schema on consume is dead-lettered', async () => {
      const bus = await (await fresh()).connect();
      const loose = await ns.connect({ topicsFile: LENIENT_TOPICS });
      let calls = 0;
      await bus.subscribe<Event>(EVENTS, uniqueGroup('permanent'), async (m) => {
        calls += 1;
        if (m.value.seq === 1) throw new DomainError('invalid', 'column missing');
      });
      const dead = collector<unknown>();
      await bus.subscribe(EVENTS_DLQ, uniqueGroup('dlq-reader'), dead.handler);
      await bus.publish(EVENTS, { entity: 'p', seq: 1 }, { key: 'p' });
      await loose.publish(EVENTS, { entity: 'p', seq: 'not a number' }, { key: 'p' });
      await waitFor('two dead letters', () => dead.seen.length === 2);
      assert.equal(calls, 1, 'the invalid payload never reached the handler; the DomainError ran once');
      assert.match(dead.seen[0]!.headers[DLQ_HEADERS.error]!, /column missing/);
      assert.match(dead.seen[1]!.headers[DLQ_HEADERS.error]!, /seq/);
    });

    test('publishing a payload that fails its schema is refused, naming the field', async () => {
      const bus = await (await fresh()).connect();
      await assert.rejects(
        bus.publish(EVENTS, { entity: 'x', seq: -1 }),
        (e: unknown) => e instanceof SchemaViolation && e.field === 'seq' && /seq/.test(e.message),
      );
      await assert.rejects(
        bus.publish(EVENTS, { seq: 1 }),
        (e: unknown) => e instanceof SchemaViolation && e.field === 'entity',
      );
      await assert.rejects(bus.publish('no.such.topic', {}), /unknown topic/);
    });

    test("a service request is refused at publish unless it fits its operation's contract, naming the field", async () => {
      const bus = await (await fresh()).connect({ topicsFile: LABLD_TOPICS });
      const refused = (topic: string, value: unknown, field: string, problem: RegExp) =>
        assert.rejects(
          bus.publish(topic, value),
          (e: unknown) => e instanceof SchemaViolation && e.field === field && problem.test(e.message),
        );
      const annotator = 'labld.annotator.requests';
      const csv = 'https://example.org/a.csv';
      await refused(
        annotator,
        { operation: 'annotat', input: { data_url: csv } },
        'operation',
        /operation must be one of: info, annotate, annotate_upload, rdf$/,
      );
      await refused(
        annotator,
        { operation: 'annotate', input: {} },
        'input.data_url',
        /data_url is required/,
      );
      await refused(annotator, { operation: 'annotate', input: { data_url: 7 } }, 'input.data_url', /string/);
      await refused(
        annotator,
        { operation: 'annotate', input: { data_url: csv, data_ulr: csv } },
        'input.data_ulr',
        /is not allowed/,
      );
      await refused(
        annotator,
        { operation: 'rdf', input: { metadata_url: csv, return_type: 'csv' } },
        'input.return_type',
        /must be one of: json-ld, n3, nt, hext, trig, turtle, longturtle, xml/,
      );
      // Each service's topic knows only its own operations.
      await refused(
        'labld.mapper.requests',
        { operation: 'annotate', input: { data_url: csv } },
        'operation',
        /types/,
      );
      await refused(
        'labld.mapper.requests',
        {
          operation: 'mapping',
          input: { data_url: csv, template_url: csv, map: {}, use_template_rowwise: 'yes' },
        },
        'input.use_template_rowwise',
        /boolean/,
      );
      // An upload or the original's JSON form: what is required depends on which.
      await refused(
        'labld.converter.requests',
        { operation: 'createrdfupload', input: { mapping_url: csv, data_url: csv } },
        'input.data_content',
        /is required/,
      );
      await refused(
        'labld.converter.requests',
        { operation: 'createrdfupload', input: { mapping_url: csv, blob: 'k' } },
        'input.filename',
        /is required/,
      );
      // What fits is published, and so is a claim (its content is checked when it is claimed).
      const accepted = [
        { operation: 'annotate', input: { data_url: csv, encoding: 'auto', return_type: 'turtle' } },
        { operation: 'annotate_upload', input: { $claim: 'f'.repeat(64) } },
        { operation: 'info', input: {} },
      ];
      for (const value of accepted) assert.ok((await bus.publish(annotator, value)).offset >= 0);
    });

    test('request/reply: answers, domain errors travel back with kind and field, timeouts reject and late replies are dropped', async () => {
      const server = await (await fresh()).connect();
      const client = await ns.connect();
      await server.serve<Event, { doubled: number }>(REQUESTS, uniqueGroup('server'), async (m) => {
        if (m.value.entity === 'bad') throw new DomainError('not-found', 'no such entity');
        if (m.value.entity === 'odd') throw new DomainError('invalid', 'seq: must be even', 'seq');
        if (m.value.entity === 'slow') await sleep(300);
        return { doubled: m.value.seq * 2 };
      });
      assert.deepEqual(await client.request(REQUESTS, { entity: 'a', seq: 21 }, { timeoutMs: 5000 }), {
        doubled: 42,
      });
      await assert.rejects(
        client.request(REQUESTS, { entity: 'bad', seq: 1 }, { timeoutMs: 5000 }),
        (e: unknown) => e instanceof DomainError && e.kind === 'not-found' && e.message === 'no such entity',
      );
      await assert.rejects(
        client.request(REQUESTS, { entity: 'odd', seq: 1 }, { timeoutMs: 5000 }),
        (e: unknown) => {
          assert.ok(e instanceof DomainError, String(e));
          assert.deepEqual([e.kind, e.message, e.field], ['invalid', 'seq: must be even', 'seq']);
          return true;
        },
      );
      const late = (await busLateReplies.get()).values[0]?.value ?? 0;
      await assert.rejects(
        client.request(REQUESTS, { entity: 'slow', seq: 1 }, { timeoutMs: 50 }),
        TimeoutError,
      );
      let counted = late;
      for (let tries = 0; tries < 100 && counted === late; tries += 1) {
        await sleep(20);
        counted = (await busLateReplies.get()).values[0]?.value ?? 0;
      }
      assert.equal(counted, late + 1, 'the late reply was counted and dropped');
    });

    test('two concurrent requesters each get only their own replies', async () => {
      const server = await (await fresh()).connect();
      const one = await ns.connect({ clientId: 'requester-one' });
      const two = await ns.connect({ clientId: 'requester-two' });
      await server.serve<Event, { entity: string; seq: number }>(REQUESTS, uniqueGroup('echo'), async (m) => {
        await sleep(m.value.seq % 5);
        return { entity: m.value.entity, seq: m.value.seq };
      });
      const calls = Array.from({ length: 50 }, (_, seq) =>
        Promise.all([
          one.request(REQUESTS, { entity: 'one', seq }, { timeoutMs: 10_000 }),
          two.request(REQUESTS, { entity: 'two', seq }, { timeoutMs: 10_000 }),
        ]),
      );
      const replies = await Promise.all(calls);
      replies.forEach(([r1, r2], seq) => {
        assert.deepEqual(r1, { entity: 'one', seq });
        assert.deepEqual(r2, { entity: 'two', seq });
      });
    });

    test('a request carries its deadline; a TimeoutError is answered as one, neither retried nor dead-lettered', async () => {
      const server = await (await fresh()).connect();
      const client = await ns.connect();
      const deadlines: (number | undefined)[] = [];
      await server.serve(REQUESTS, uniqueGroup('late'), async (m) => {
        deadlines.push(deadlineOf(m.headers));
        throw new TimeoutError('out of time at the consumer');
      });
      const deadLettered = async () =>
        (await busDeadLettered.get()).values.reduce((sum, v) => sum + v.value, 0);
      const dead = await deadLettered();
      const before = Date.now();
      await assert.rejects(
        client.request(REQUESTS, { entity: 't', seq: 0 }, { timeoutMs: 5000 }),
        (e: unknown) => e instanceof TimeoutError && e.message === 'out of time at the consumer',
      );
      assert.equal(deadlines.length, 1, 'handled once');
      assert.equal(await deadLettered(), dead, 'not dead-lettered');
      assert.ok(deadlines[0]! >= before + 5000 && deadlines[0]! <= Date.now() + 5000, String(deadlines[0]));
    });

    test('a request whose handler keeps failing is dead-lettered and answered with a 5xx', async () => {
      const server = await (await fresh()).connect();
      const client = await ns.connect();
      await server.serve(REQUESTS, uniqueGroup('broken'), async () => {
        throw new Error('boom');
      });
      const dead = collector<unknown>();
      await server.subscribe(REQUESTS_DLQ, uniqueGroup('dlq-reader'), dead.handler);
      await assert.rejects(
        client.request(REQUESTS, { entity: 'z', seq: 0 }, { timeoutMs: 5000 }),
        (e: unknown) => !(e instanceof DomainError) && /dead-lettered/.test((e as Error).message),
      );
      await waitFor('the dead letter', () => dead.seen.length === 1);
      assert.deepEqual(dead.seen[0]!.value, { entity: 'z', seq: 0 });
    });

    windowConformance(fresh);
    retryConformance(fresh);
  });
}
