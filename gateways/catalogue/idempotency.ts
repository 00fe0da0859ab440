// `Idempotency-Key` on resource_create: a client that lost the answer to an upload sends it
// again with the same key and gets the first answer, not a second resource. The key is scoped
// to the caller and the dataset (one client's key never answers another's request); the
// request it first came with is remembered by a fingerprint (action, parameters, the uploaded
// file's content hash), so the same key with another request is refused, naming the header.
// Kept in the shared stores (Redis when configured) for LABLD_IDEMPOTENCY_TTL_S.
import { createHash } from 'node:crypto';
import type { Credential } from '../../lib/catalogue/auth/actor.ts';
import type { ActionName, StoredUpload } from '../../lib/contracts/catalogue.ts';
import { intSetting } from '../../lib/process/config.ts';
import { conflict, invalid, unreachable } from '../../lib/process/errors.ts';
import { idempotentReplays } from '../../lib/process/metrics.ts';
import type { IdempotencyStore } from '../../lib/shared/contract.ts';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** The actions that honour the header: those that make a resource (an upload). */
const IDEMPOTENT: ReadonlySet<ActionName> = new Set<ActionName>(['resource_create']);

export interface IdempotentCall {
  /** The header's value; undefined: none sent. */
  key: string | undefined;
  action: ActionName;
  credential: Credential;
  params: Record<string, unknown>;
  upload?: StoredUpload | undefined;
}

/** JSON with object keys sorted, so the same parameters in another order are the same request. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** A key is 1–255 visible ASCII characters (as the IETF draft and the common APIs take them). */
function checkedKey(key: string): string {
  if (!/^[\x21-\x7e][\x20-\x7e]{0,254}$/.test(key) || key.endsWith(' ')) {
    throw invalid(
      `${IDEMPOTENCY_HEADER}: must be 1 to 255 visible ASCII characters (a UUID, say)`,
      IDEMPOTENCY_HEADER,
    );
  }
  return key;
}

/**
 * Runs `work` once per (caller, dataset, key): a retry with the same request answers the first
 * result; the same key with another request, or while the first still runs, is a conflict.
 */
export async function idempotent(
  store: IdempotencyStore | undefined,
  call: IdempotentCall,
  work: () => Promise<unknown>,
): Promise<unknown> {
  if (call.key === undefined || store === undefined || !IDEMPOTENT.has(call.action)) return work();
  const key = checkedKey(call.key);
  const caller = call.credential.kind === 'anonymous' ? 'anonymous' : call.credential.hash;
  const scope = sha256(canonical([caller, call.params.package_id ?? null, key]));
  const { blob, filename, mimetype } = call.upload ?? {};
  const fingerprint = sha256(
    canonical([call.action, call.params, blob ?? null, filename ?? null, mimetype ?? null]),
  );
  const ttlMs = intSetting('LABLD_IDEMPOTENCY_TTL_S') * 1000;
  // A claim outlives the request's own deadline, so a retry cannot start it twice while it runs.
  const pendingMs = Math.min(ttlMs, intSetting('LABLD_REQUEST_TIMEOUT_MS') * 2);
  let found;
  try {
    found = await store.claim(scope, fingerprint, pendingMs);
  } catch {
    // Without the store a retry could not be recognised: refuse rather than risk a second resource.
    throw unreachable(
      `${IDEMPOTENCY_HEADER}: the idempotency store (LABLD_REDIS_URL) cannot be reached; send the request again later`,
      IDEMPOTENCY_HEADER,
    );
  }
  if (found && found.fingerprint !== fingerprint) {
    throw conflict(
      `${IDEMPOTENCY_HEADER}: this key was used for another request (other parameters or another file); use a new key`,
      IDEMPOTENCY_HEADER,
    );
  }
  if (found?.state === 'pending') {
    throw conflict(
      `${IDEMPOTENCY_HEADER}: the first request with this key is still running; send it again when it has finished`,
      IDEMPOTENCY_HEADER,
    );
  }
  if (found?.state === 'done') {
    idempotentReplays.inc();
    return JSON.parse(found.result) as unknown;
  }
  let result: unknown;
  try {
    result = await work();
  } catch (error) {
    // Nothing was made: the key is free for the retry.
    await store.release(scope).catch(() => {});
    throw error;
  }
  // The resource exists now: a store that fails here only loses the replay, never the answer.
  await store.complete(scope, fingerprint, JSON.stringify(result ?? null), ttlMs).catch(() => {});
  return result;
}
