// The chain's tables of the catalogue store: the outbox of events waiting to be published (the
// chain's and the triple store's), and the status of each step per source resource (migration
// 3). Plain rows; what the states mean and which transitions are allowed is lib/chain/status.ts's
// business.
import { NEEDS_MAPPING, type EndState, type StatusStep, type StepStatus } from '../../../chain/status.ts';
import type { DeadLetter } from '../../../chain/dead-letters.ts';
import type { OutboxEvent, SourceStepStatus, StepStatusFilter, StoredEvent } from '../contract.ts';
import { num, optStr, str } from './rows.ts';
import type { Param, Row, SqlSession } from './session.ts';

export async function addEvent(s: SqlSession, event: OutboxEvent): Promise<void> {
  await s.run(`INSERT INTO chain_outbox (event, event_key, payload, created) VALUES (?, ?, ?, ?)`, [
    event.event,
    event.key,
    JSON.stringify(event.payload),
    new Date().toISOString(),
  ]);
}

export async function pendingEvents(s: SqlSession, limit: number): Promise<StoredEvent[]> {
  const rows = await s.all(`SELECT * FROM chain_outbox ORDER BY seq LIMIT ?`, [limit]);
  return rows.map(
    (r) =>
      ({
        seq: num(r.seq),
        event: str(r.event),
        key: str(r.event_key),
        payload: JSON.parse(str(r.payload)) as unknown,
      }) as StoredEvent,
  );
}

export async function removeEvents(s: SqlSession, seqs: readonly number[]): Promise<void> {
  if (seqs.length === 0) return;
  await s.run(`DELETE FROM chain_outbox WHERE seq IN (${seqs.map(() => '?').join(', ')})`, [...seqs]);
}

/**
 * Takes the outbox's lock for the rest of the transaction `s` is in (PostgreSQL); false if
 * another session has it. An advisory lock per schema, let go at commit or when the holder's
 * connection dies (a killed relay).
 */
export async function lockOutbox(s: SqlSession): Promise<boolean> {
  const [row] = await s.all(
    `SELECT pg_try_advisory_xact_lock(hashtext(current_schema() || '.chain_outbox')) AS locked`,
  );
  return row?.locked === true;
}

/**
 * Takes or renews the outbox's lease for `holder` until `expires` (SQLite, outside any
 * transaction: one statement, atomic on its own); false while another holder's lease runs. A
 * killed relay's lease runs out.
 */
export async function leaseOutbox(s: SqlSession, holder: string, at: Date, expires: Date): Promise<boolean> {
  const changed = await s.run(
    `INSERT INTO chain_outbox_lease (id, holder, expires) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, expires = excluded.expires
     WHERE chain_outbox_lease.holder = excluded.holder OR chain_outbox_lease.expires < ?`,
    [holder, expires.toISOString(), at.toISOString()],
  );
  return changed === 1;
}

export async function releaseOutbox(s: SqlSession, holder: string): Promise<void> {
  await s.run(`DELETE FROM chain_outbox_lease WHERE holder = ?`, [holder]);
}

const json = (value: unknown): string | null => (value === undefined ? null : JSON.stringify(value));
const parsed = (value: unknown): unknown => (value == null ? undefined : JSON.parse(str(value)));

/** A stored row as the status it was made from. */
function statusOf(r: Row): SourceStepStatus {
  const common = {
    step: str(r.step) as StatusStep,
    run: str(r.run),
    attempt: num(r.attempt),
    queuedAt: str(r.queued_at),
  };
  const startedAt = optStr(r.started_at);
  const finishedAt = str(r.finished_at);
  let status: StepStatus;
  switch (str(r.state)) {
    case 'running': {
      const progress = parsed(r.progress);
      status = { ...common, state: 'running', startedAt: str(startedAt) };
      if (progress) status.progress = progress as never;
      break;
    }
    case 'done':
    case NEEDS_MAPPING:
      status = {
        ...common,
        state: str(r.state) as EndState,
        startedAt: str(startedAt),
        finishedAt,
        summary: parsed(r.summary) as never,
      };
      break;
    case 'failed':
      status = { ...common, state: 'failed', finishedAt, failure: parsed(r.error) as never };
      if (startedAt !== null) status.startedAt = startedAt;
      break;
    default:
      status = { ...common, state: 'queued' };
  }
  return { source_resource_id: str(r.source_resource_id), package_id: str(r.package_id), status };
}

export async function putStepStatus(s: SqlSession, row: SourceStepStatus): Promise<void> {
  const { status } = row;
  const values: Param[] = [
    status.state,
    status.run,
    status.attempt,
    json('progress' in status ? status.progress : undefined),
    json('summary' in status ? status.summary : undefined),
    json('failure' in status ? status.failure : undefined),
    status.queuedAt,
    'startedAt' in status ? (status.startedAt ?? null) : null,
    'finishedAt' in status ? status.finishedAt : null,
  ];
  const changed = await s.run(
    `UPDATE chain_step_status SET state = ?, run = ?, attempt = ?, progress = ?, summary = ?, error = ?,
       queued_at = ?, started_at = ?, finished_at = ? WHERE source_resource_id = ? AND step = ?`,
    [...values, row.source_resource_id, status.step],
  );
  if (changed > 0) return;
  await s.run(
    `INSERT INTO chain_step_status (state, run, attempt, progress, summary, error, queued_at, started_at,
       finished_at, source_resource_id, step, package_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [...values, row.source_resource_id, status.step, row.package_id],
  );
}

export async function getStepStatus(
  s: SqlSession,
  sourceResourceId: string,
  step: StatusStep,
): Promise<SourceStepStatus | undefined> {
  const [row] = await s.all(`SELECT * FROM chain_step_status WHERE source_resource_id = ? AND step = ?`, [
    sourceResourceId,
    step,
  ]);
  return row ? statusOf(row) : undefined;
}

/** The statuses of a dataset's sources (or of one source), in no particular order. */
export async function listStepStatus(s: SqlSession, filter: StepStatusFilter): Promise<SourceStepStatus[]> {
  const columns = ['package_id', 'source_resource_id', 'step', 'state'] as const;
  const given = columns.filter((c) => filter[c] !== undefined);
  // Never the whole table by mistake (an id that came undefined): a filter that names nothing lists nothing.
  if (given.length === 0) return [];
  const where = given.map((c) => `${c} = ?`).join(' AND ');
  const rows = await s.all(
    `SELECT * FROM chain_step_status WHERE ${where}`,
    given.map((c) => str(filter[c])),
  );
  return rows.map(statusOf);
}

export async function deleteStepStatus(s: SqlSession, sourceResourceId: string): Promise<void> {
  await s.run(`DELETE FROM chain_step_status WHERE source_resource_id = ?`, [sourceResourceId]);
}

export async function addDeadLetter(s: SqlSession, d: DeadLetter): Promise<void> {
  await s.run(
    `INSERT INTO chain_dead_letters (id, package_id, source_resource_id, run, consumer_group, topic, error,
       attempts, failed_at, event_key, payload) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
    [
      d.id,
      d.package_id,
      d.source_resource_id,
      d.run,
      d.group,
      d.topic,
      d.error,
      d.attempts,
      d.failed_at,
      d.key,
      JSON.stringify(d.payload),
    ],
  );
}

const deadLetterOf = (r: Row): DeadLetter => ({
  id: str(r.id),
  package_id: str(r.package_id),
  source_resource_id: str(r.source_resource_id),
  run: str(r.run),
  group: str(r.consumer_group),
  topic: str(r.topic),
  error: str(r.error),
  attempts: num(r.attempts),
  failed_at: str(r.failed_at),
  key: optStr(r.event_key),
  payload: JSON.parse(str(r.payload)) as DeadLetter['payload'],
});

export async function getDeadLetter(s: SqlSession, id: string): Promise<DeadLetter | undefined> {
  const [row] = await s.all(`SELECT * FROM chain_dead_letters WHERE id = ?`, [id]);
  return row ? deadLetterOf(row) : undefined;
}

export async function listDeadLetters(s: SqlSession, filter: { package_id: string }): Promise<DeadLetter[]> {
  const rows = await s.all(`SELECT * FROM chain_dead_letters WHERE package_id = ? ORDER BY failed_at, id`, [
    filter.package_id,
  ]);
  return rows.map(deadLetterOf);
}

export async function deleteDeadLetters(
  s: SqlSession,
  filter: { id: string } | { source_resource_id: string; group?: string },
): Promise<void> {
  if ('id' in filter) {
    await s.run(`DELETE FROM chain_dead_letters WHERE id = ?`, [filter.id]);
  } else if (filter.group === undefined) {
    await s.run(`DELETE FROM chain_dead_letters WHERE source_resource_id = ?`, [filter.source_resource_id]);
  } else {
    await s.run(`DELETE FROM chain_dead_letters WHERE source_resource_id = ? AND consumer_group = ?`, [
      filter.source_resource_id,
      filter.group,
    ]);
  }
}
