// Which failures are worth a retry (lib/process/transient.ts): the errors are made by the real
// sources where this machine has them (node:sqlite, fetch); PostgreSQL's and Kafka's carry the
// fields those clients set (pg's SQLSTATE `code`, kafkajs's `retriable`).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DatabaseSync } from 'node:sqlite';
import { createServer } from 'node:net';
import { DeterministicFault, isDeterministic } from '../../lib/process/transient.ts';
import { DomainError } from '../../lib/process/errors.ts';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  assert.fail('expected a throw');
}

const withCode = (code: string, message = code) => Object.assign(new Error(message), { code });

describe('isDeterministic', () => {
  it('calls programming errors deterministic', () => {
    assert.ok(isDeterministic(thrown(() => (undefined as unknown as { a: number }).a)));
    assert.ok(isDeterministic(thrown(() => JSON.parse('{'))));
    assert.ok(isDeterministic(thrown(() => new Array(-1))));
    assert.ok(isDeterministic(new DeterministicFault('TypeError: x is not a function')));
  });

  it('calls SQLite refusing a statement deterministic, and a busy database transient', () => {
    const db = new DatabaseSync(':memory:');
    const columns = Array.from({ length: 2001 }, (_, i) => `c${i} TEXT`).join(', ');
    const tooWide = thrown(() => db.exec(`CREATE TABLE t (${columns})`));
    assert.match(String(tooWide), /too many columns/);
    assert.ok(isDeterministic(tooWide));
    db.exec('CREATE TABLE u (a INTEGER UNIQUE); INSERT INTO u VALUES (1)');
    assert.ok(isDeterministic(thrown(() => db.exec('INSERT INTO u VALUES (1)'))));
    assert.ok(isDeterministic(thrown(() => db.exec('SELEC 1'))));
    const busy = Object.assign(new Error('database is locked'), { code: 'ERR_SQLITE_ERROR', errcode: 5 });
    assert.equal(isDeterministic(busy), false);
  });

  it('reads PostgreSQL SQLSTATEs by class', () => {
    for (const code of ['42601', '42P01', '22P02', '23505', '0A000'])
      assert.ok(isDeterministic(withCode(code)), code);
    for (const code of ['08006', '40001', '40P01', '57P01', '53300'])
      assert.equal(isDeterministic(withCode(code)), false, code);
  });

  it('retries connection failures, even a TypeError whose cause is one (fetch)', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const refused = await fetch(`http://127.0.0.1:${port}/`).catch((error: unknown) => error);
    assert.ok(refused instanceof TypeError, String(refused));
    assert.equal(isDeterministic(refused), false);
    assert.equal(isDeterministic(withCode('ECONNRESET')), false);
    assert.equal(isDeterministic(new TypeError('fetch failed', { cause: withCode('ETIMEDOUT') })), false);
  });

  it('follows kafkajs on whether its errors are retriable', () => {
    const kafka = (retriable: boolean) =>
      Object.assign(new Error('x'), { name: 'KafkaJSProtocolError', retriable });
    assert.equal(isDeterministic(kafka(true)), false);
    assert.ok(isDeterministic(kafka(false)));
  });

  it('leaves errors of no known sort to be retried, as before', () => {
    assert.equal(isDeterministic(new Error('disk on fire')), false);
    assert.equal(isDeterministic('a string'), false);
    // Domain errors are answered at once by their own rule, not by this one.
    assert.equal(isDeterministic(new DomainError('unreachable', 'upstream down')), false);
  });

  it('does not call memory pressure deterministic', () => {
    assert.equal(isDeterministic(new RangeError('Array buffer allocation failed')), false);
  });
});
