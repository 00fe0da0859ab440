// What the triple store suites share: the environment each implementation supplies, fresh
// dataset ids and graph IRIs (every test its own, so the suites can share one server), and
// small helpers over results.
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import assert from 'node:assert/strict';
import { afterEach } from 'node:test';
import type { GraphFormat, QueryLimits, QueryResult, TripleStore } from '../../lib/triplestore/contract.ts';
import { bindingsOf, resourceGraphIri } from '../../lib/triplestore/contract.ts';
import { DomainError } from '../../lib/process/errors.ts';

export interface Namespace {
  connect(limits?: Partial<QueryLimits>): Promise<TripleStore>;
  dispose(): Promise<void>;
}

export interface TripleStoreEnvironment {
  name: string;
  fresh(): Promise<Namespace>;
}

/**
 * Call inside a describe: `open(limits)` gives each test a fresh store (ready), closed and its
 * namespace disposed after the test.
 */
export function freshStores(
  env: TripleStoreEnvironment,
): (limits?: Partial<QueryLimits>) => Promise<TripleStore> {
  let ns: Namespace | undefined;
  let store: TripleStore | undefined;
  afterEach(async () => {
    await store?.close();
    await ns?.dispose();
    store = ns = undefined;
  });
  return async (limits = {}) => {
    ns = await env.fresh();
    store = await ns.connect(limits);
    await store.ready();
    return store;
  };
}

export const DEFAULT_TEST_LIMITS: QueryLimits = { timeoutMs: 5000, maxResults: 1000 };

export const SITE = 'https://catalogue.test';

/** A dataset id no other test uses. */
export function datasetId(label: string): string {
  return `${label}-${randomBytes(5).toString('hex')}`;
}

/** The named graph of a resource of the dataset, as the load consumer names it. */
export function graphOf(dataset: string, resource = 'r1', file = 'data-joined.ttl'): string {
  return resourceGraphIri(SITE, dataset, resource, file);
}

export function turtle(text: string, format: GraphFormat = 'text/turtle') {
  return { format, body: Readable.from([Buffer.from(text)]) };
}

/** `n` triples `<urn:x:i> <urn:p:value> "label"`. */
export function numbered(n: number, label: string, subject = 'urn:x:'): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i++) lines.push(`<${subject}${i}> <urn:p:value> "${label}" .`);
  return lines.join('\n');
}

export function rows(result: QueryResult): Record<string, string>[] {
  assert.equal(result.type, 'select');
  if (result.type !== 'select') return [];
  return bindingsOf(result).map((b) => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, v.value])));
}

export function count(result: QueryResult, variable = 'n'): number {
  return Number(rows(result)[0]?.[variable]);
}

/** Asserts that `promise` rejects with a DomainError of `kind` (naming `field`, when given). */
export async function refused(promise: Promise<unknown>, kind: string, field?: string): Promise<DomainError> {
  let caught: DomainError | undefined;
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof DomainError, `a DomainError, got ${String(error)}`);
    assert.equal(error.kind, kind, error.message);
    if (field !== undefined) assert.equal(error.field, field, error.message);
    caught = error;
    return true;
  });
  return caught!;
}
