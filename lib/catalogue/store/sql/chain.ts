// The chain's tables of the catalogue store: the outbox of events waiting to be published, and
// the status of each step per source resource (migration 3). Plain rows; what the states mean
// and which transitions are allowed is lib/chain/status.ts's business.
import type { StatusStep, StepStatus } from '../../../chain/status.ts';
import type { OutboxEvent, SourceStepStatus, StoredEvent } from '../contract.ts';
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
  return rows.map((r) => ({
    seq: num(r.seq),
    event: str(r.event) as OutboxEvent['event'],
    key: str(r.event_key),
    payload: JSON.parse(str(r.payload)) as OutboxEvent['payload'],
  }));
}

export async function removeEvents(s: SqlSession, seqs: readonly number[]): Promise<void> {
  if (seqs.length === 0) return;
  await s.run(`DELETE FROM chain_outbox WHERE seq IN (${seqs.map(() => '?').join(', ')})`, [...seqs]);
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
      status = {
        ...common,
        state: 'done',
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
export async function listStepStatus(
  s: SqlSession,
  filter: { package_id?: string; source_resource_id?: string },
): Promise<SourceStepStatus[]> {
  const rows = filter.source_resource_id
    ? await s.all(`SELECT * FROM chain_step_status WHERE source_resource_id = ?`, [filter.source_resource_id])
    : await s.all(`SELECT * FROM chain_step_status WHERE package_id = ?`, [str(filter.package_id)]);
  return rows.map(statusOf);
}

export async function deleteStepStatus(s: SqlSession, sourceResourceId: string): Promise<void> {
  await s.run(`DELETE FROM chain_step_status WHERE source_resource_id = ?`, [sourceResourceId]);
}
