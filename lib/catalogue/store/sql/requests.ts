// Requests handled once (migration 5): a write that the bus delivers again, because the commit
// of its offset was lost, answers what it answered the first time and writes nothing. The
// request's id is claimed first in the write's own transaction, so a repeat running at the same
// time on PostgreSQL waits for the first one's commit and then finds its answer.
import { conflict, invalid } from '../../../process/errors.ts';
import type { HandledRequest } from '../contract.ts';
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
  const value = await work();
  // Wrapped, so that an answer of `undefined` is kept as one.
  await s.run(`UPDATE handled_requests SET result = ? WHERE request_id = ?`, [JSON.stringify({ value }), id]);
  return value;
}

/** Forgets the requests handled before `before` (by the index on handled_at). */
export function forgetHandled(s: SqlSession, before: Date): Promise<number> {
  return s.run(`DELETE FROM handled_requests WHERE handled_at < ?`, [before.toISOString()]);
}
