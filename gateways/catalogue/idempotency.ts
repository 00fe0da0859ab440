// `Idempotency-Key` on resource_create: a client that lost the answer to an upload sends it
// again with the same key and gets the first answer, not a second resource. The key is scoped
// to the caller and the dataset (one client's key never answers another's request); the
// request it first came with is remembered by a fingerprint (action, parameters, the uploaded
// file's content hash), so the same key with another request is refused, naming the header.
// The catalogue store keeps the key with the action's writes, in their transaction, for
// LABLD_IDEMPOTENCY_TTL_S (lib/catalogue/store/sql/requests.ts): a retry after a crash, or
// while the first still runs, waits for it and answers its result.
import { createHash } from 'node:crypto';
import type { Credential } from '../../lib/catalogue/auth/actor.ts';
import type { ActionName, StoredUpload, WireIdempotency } from '../../lib/contracts/catalogue.ts';
import { invalid } from '../../lib/process/errors.ts';

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
 * What the action request carries for the catalogue store: the key scoped to (caller, dataset)
 * and the request's fingerprint; undefined without a header or on an action that ignores it.
 */
export function idempotencyOf(call: IdempotentCall): WireIdempotency | undefined {
  if (call.key === undefined || !IDEMPOTENT.has(call.action)) return undefined;
  const key = checkedKey(call.key);
  const caller = call.credential.kind === 'anonymous' ? 'anonymous' : call.credential.hash;
  const { blob, filename, mimetype } = call.upload ?? {};
  return {
    key: sha256(canonical([caller, call.params.package_id ?? null, key])),
    fingerprint: sha256(
      canonical([call.action, call.params, blob ?? null, filename ?? null, mimetype ?? null]),
    ),
  };
}
