// Requests handled once (migration 5): a write that the bus delivers again, because the commit
// of its offset was lost, answers what it answered the first time and writes nothing. The
// request's id is claimed first in the write's own transaction, so a repeat running at the same
// time on PostgreSQL waits for the first one's commit and then finds its answer. A client's
// idempotency key (migration 7) is claimed the same way, after the id: a retry the client sends
// (another id) finds the answer of the first, committed before a crash or not yet answered.
import { conflict, invalid } from '../../../process/errors.ts';
import type { HandledRequest, IdempotencyKey } from '../contract.ts';
import { str } from './rows.ts';
import type { SqlSession } from './session.ts';

const MAX_ID = 200;

export async function handleOnce<T>(
  s: SqlSession,
  request: HandledRequest,
  work: () => Promise<T>,
): Promise<T> {
  const { id, operation } = request;
  if (typeof id !== 'string' || id === '' || id.length > MAX_ID) {
    throw invalid(`request_id: must be a string of 1 to ${MAX_ID} characters`, 'request_id');
  }
  const claimed = await s.run(
    `INSERT INTO handled_requests (request_id, operation, handled_at) VALUES (?, ?, ?)
     ON CONFLICT (request_id) DO NOTHING`,
    [id, operation, new Date().toISOString()],
  );
  if (claimed === 0) {
    const [row] = await s.all(`SELECT operation, result FROM handled_requests WHERE request_id = ?`, [id]);
    // Only committed claims are seen here, and a claim commits with its answer.
    if (!row || row.result == null || str(row.operation) !== operation) {
      throw conflict(`request_id: ${JSON.stringify(id)} was used for another request`, 'request_id');
    }
    return (JSON.parse(str(row.result)) as { value: T }).value;
  }
  const idempotency = request.idempotency;
  const kept = idempotency && (await claimKey(s, idempotency));
  // Wrapped, so that an answer of `undefined` is kept as one.
  const value = kept ? (JSON.parse(kept) as { value: T }).value : await work();
  const result = JSON.stringify({ value });
  await s.run(`UPDATE handled_requests SET result = ? WHERE request_id = ?`, [result, id]);
  if (idempotency && !kept) {
    await s.run(`UPDATE idempotency_keys SET result = ? WHERE idempotency_key = ?`, [
      result,
      idempotency.key,
    ]);
  }
  return value;
}

/**
 * Claims a client's key for this request: undefined when claimed (the work runs), else the
 * answer kept for it. An expired key is free again; one kept for another request is a conflict.
 */
async function claimKey(s: SqlSession, idempotency: IdempotencyKey): Promise<string | undefined> {
  const { key, fingerprint, expires } = idempotency;
  if (typeof key !== 'string' || key === '' || key.length > MAX_ID) {
    throw invalid(
      `Idempotency-Key: the scoped key must be a string of 1 to ${MAX_ID} characters`,
      'Idempotency-Key',
    );
  }
  const now = new Date().toISOString();
  await s.run(`DELETE FROM idempotency_keys WHERE idempotency_key = ? AND expires_at <= ?`, [key, now]);
  const claimed = await s.run(
    `INSERT INTO idempotency_keys (idempotency_key, fingerprint, expires_at) VALUES (?, ?, ?)
     ON CONFLICT (idempotency_key) DO NOTHING`,
    [key, fingerprint, expires.toISOString()],
  );
  if (claimed !== 0) return undefined;
  const [row] = await s.all(`SELECT fingerprint, result FROM idempotency_keys WHERE idempotency_key = ?`, [
    key,
  ]);
  // As with the id, only committed claims are seen here, and a claim commits with its answer.
  if (!row || row.result == null || str(row.fingerprint) !== fingerprint) {
    throw conflict(
      'Idempotency-Key: this key was used for another request (other parameters or another file); use a new key',
      'Idempotency-Key',
    );
  }
  return str(row.result);
}

/** Forgets the requests handled before `before` (by the index on handled_at), and expired keys. */
export async function forgetHandled(s: SqlSession, before: Date): Promise<number> {
  await s.run(`DELETE FROM idempotency_keys WHERE expires_at <= ?`, [new Date().toISOString()]);
  return s.run(`DELETE FROM handled_requests WHERE handled_at < ?`, [before.toISOString()]);
}
