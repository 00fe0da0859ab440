// Helpers shared by the catalogue's SQL: finding a record by id or name, paging, and turning a
// driver's constraint violation into the domain's error for the field concerned.
import { conflict, invalid, notFound, type DomainError } from '../../../process/errors.ts';
import type { Paging } from '../contract.ts';
import type { SqlSession } from './session.ts';

export type Table = 'packages' | 'users' | 'groups' | 'organizations';

/** The id of the record whose id or name this is (an id wins, as in CKAN); undefined if none. */
export async function findId(s: SqlSession, table: Table, idOrName: string): Promise<string | undefined> {
  if (typeof idOrName !== 'string' || idOrName === '') return undefined;
  const rows = await s.all(`SELECT id FROM ${table} WHERE id = ? OR name = ?`, [idOrName, idOrName]);
  const exact = rows.find((r) => r.id === idOrName) ?? rows[0];
  return exact ? String(exact.id) : undefined;
}

const NOUN: Record<Table, string> = {
  packages: 'dataset',
  users: 'user',
  groups: 'group',
  organizations: 'organization',
};

/** As findId, or not-found naming `field`. */
export async function requireId(
  s: SqlSession,
  table: Table,
  idOrName: string,
  field: string,
): Promise<string> {
  const id = await findId(s, table, idOrName);
  if (id === undefined) throw notFound(`${field}: no ${NOUN[table]} ${JSON.stringify(idOrName)}`, field);
  return id;
}

export const MAX_LIMIT = 1000;

export function paging(p: Paging): { limit: number; offset: number } {
  const limit = p.limit ?? 20;
  const offset = p.offset ?? 0;
  if (!Number.isSafeInteger(limit) || limit < 0 || limit > MAX_LIMIT) {
    throw invalid(
      `limit: must be a whole number from 0 to ${MAX_LIMIT} (got ${JSON.stringify(limit)})`,
      'limit',
    );
  }
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw invalid(`offset: must be a whole number from 0 (got ${JSON.stringify(offset)})`, 'offset');
  }
  return { limit, offset };
}

/**
 * Runs a write; a unique violation becomes `conflict` on `field` (its value is taken), a
 * foreign key violation `not-found`. Other errors pass unchanged.
 */
export async function guarded<T>(
  s: SqlSession,
  field: string,
  value: string,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    throw translated(s, error, field, value);
  }
}

function translated(s: SqlSession, error: unknown, field: string, value: string): unknown {
  const kind = s.violation(error);
  const e: DomainError | undefined =
    kind === 'unique'
      ? conflict(`${field}: ${JSON.stringify(value)} is already in use`, field)
      : kind === 'foreign-key'
        ? notFound(`${field}: refers to a record that does not exist`, field)
        : undefined;
  return e ?? error;
}

/** A LIKE pattern matching `term` anywhere, its wildcards escaped (with ESCAPE '\'). */
export function containing(term: string): string {
  return `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** A string field, or `invalid` naming it. */
export function text(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(`${field}: must be a string`, field);
  return value;
}
