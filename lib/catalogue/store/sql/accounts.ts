// Users, their roles per dataset, their API tokens and browser sessions in SQL (half of the catalogue store;
// store.ts has the datasets and delegates here).
import { randomUUID } from 'node:crypto';
import { invalid, notFound } from '../../../process/errors.ts';
import {
  checkName,
  checkRole,
  now,
  type ApiToken,
  type ApiTokenFields,
  type Membership,
  type Role,
  type Session,
  type SessionFields,
  type Timestamp,
  type User,
  type UserChanges,
  type UserFields,
} from '../../model.ts';
import { guarded, requireId, text } from './common.ts';
import { membershipOf, sessionOf, tokenOf, userOf } from './rows.ts';
import type { SqlSession } from './session.ts';

function userColumns(fields: UserChanges, base?: User) {
  const hash = fields.password_hash !== undefined ? fields.password_hash : (base?.password_hash ?? null);
  if (hash !== null) text(hash, 'password_hash');
  return {
    fullname: text(fields.fullname ?? base?.fullname ?? '', 'fullname'),
    email: text(fields.email ?? base?.email ?? '', 'email'),
    sysadmin: (fields.sysadmin ?? base?.sysadmin ?? false) ? 1 : 0,
    password_hash: hash,
  };
}

export async function createUser(s: SqlSession, fields: UserFields): Promise<User> {
  const name = checkName(fields.name, 'name');
  const c = userColumns(fields);
  const id = randomUUID();
  await guarded(s, 'name', name, () =>
    s.run(
      `INSERT INTO users (id, name, fullname, email, sysadmin, password_hash, created) VALUES (?, ?, ?, ?, ?, ?, ?)`,
      [id, name, c.fullname, c.email, c.sysadmin, c.password_hash, now()],
    ),
  );
  return (await getUser(s, id))!;
}

export async function getUser(s: SqlSession, idOrName: string): Promise<User | undefined> {
  const rows = await s.all(`SELECT * FROM users WHERE id = ? OR name = ?`, [idOrName, idOrName]);
  const row = rows.find((r) => r.id === idOrName) ?? rows[0];
  return row ? userOf(row) : undefined;
}

export async function updateUser(s: SqlSession, idOrName: string, changes: UserChanges): Promise<User> {
  const user = await getUser(s, idOrName);
  if (!user) throw notFound(`id: no user ${JSON.stringify(idOrName)}`, 'id');
  const c = userColumns(changes, user);
  await s.run(`UPDATE users SET fullname = ?, email = ?, sysadmin = ?, password_hash = ? WHERE id = ?`, [
    c.fullname,
    c.email,
    c.sysadmin,
    c.password_hash,
    user.id,
  ]);
  return (await getUser(s, user.id))!;
}

export async function listUsers(s: SqlSession): Promise<User[]> {
  return (await s.all(`SELECT * FROM users ORDER BY name`)).map(userOf);
}

export async function setRole(s: SqlSession, user: string, dataset: string, role: Role): Promise<Membership> {
  checkRole(role);
  const userId = await requireId(s, 'users', user, 'user');
  const packageId = await requireId(s, 'packages', dataset, 'package_id');
  await s.run(
    `INSERT INTO memberships (user_id, package_id, role) VALUES (?, ?, ?)
     ON CONFLICT (user_id, package_id) DO UPDATE SET role = excluded.role`,
    [userId, packageId, role],
  );
  return { user_id: userId, package_id: packageId, role };
}

export async function removeRole(s: SqlSession, user: string, dataset: string): Promise<void> {
  const userId = await requireId(s, 'users', user, 'user');
  const packageId = await requireId(s, 'packages', dataset, 'package_id');
  await s.run(`DELETE FROM memberships WHERE user_id = ? AND package_id = ?`, [userId, packageId]);
}

export async function roleOf(s: SqlSession, user: string, dataset: string): Promise<Role | undefined> {
  const [row] = await s.all(
    `SELECT m.role FROM memberships m JOIN users u ON u.id = m.user_id JOIN packages p ON p.id = m.package_id
     WHERE (u.id = ? OR u.name = ?) AND (p.id = ? OR p.name = ?)`,
    [user, user, dataset, dataset],
  );
  return row ? (String(row.role) as Role) : undefined;
}

export async function rolesOfUser(s: SqlSession, user: string): Promise<Membership[]> {
  const userId = await requireId(s, 'users', user, 'user');
  const rows = await s.all(`SELECT * FROM memberships WHERE user_id = ? ORDER BY package_id`, [userId]);
  return rows.map(membershipOf);
}

export async function membersOfDataset(s: SqlSession, dataset: string): Promise<Membership[]> {
  const packageId = await requireId(s, 'packages', dataset, 'package_id');
  const rows = await s.all(`SELECT * FROM memberships WHERE package_id = ? ORDER BY user_id`, [packageId]);
  return rows.map(membershipOf);
}

export async function createToken(s: SqlSession, fields: ApiTokenFields): Promise<ApiToken> {
  const userId = await requireId(s, 'users', fields.user_id, 'user_id');
  const name = text(fields.name, 'name');
  const hash = text(fields.token_hash, 'token_hash');
  if (hash === '') throw invalid('token_hash: must not be empty', 'token_hash');
  const id = randomUUID();
  await guarded(s, 'token_hash', '(a token hash)', () =>
    s.run(`INSERT INTO api_tokens (id, user_id, name, token_hash, created) VALUES (?, ?, ?, ?, ?)`, [
      id,
      userId,
      name,
      hash,
      now(),
    ]),
  );
  return tokenOf((await s.all(`SELECT * FROM api_tokens WHERE id = ?`, [id]))[0]!);
}

export async function findTokenByHash(s: SqlSession, tokenHash: string): Promise<ApiToken | undefined> {
  const [row] = await s.all(`SELECT * FROM api_tokens WHERE token_hash = ?`, [tokenHash]);
  return row ? tokenOf(row) : undefined;
}

export async function listTokens(s: SqlSession, user: string): Promise<ApiToken[]> {
  const userId = await requireId(s, 'users', user, 'user');
  const rows = await s.all(`SELECT * FROM api_tokens WHERE user_id = ? ORDER BY created, id`, [userId]);
  return rows.map(tokenOf);
}

export async function revokeToken(s: SqlSession, id: string): Promise<void> {
  if ((await s.run(`DELETE FROM api_tokens WHERE id = ?`, [id])) === 0) {
    throw notFound(`id: no API token ${JSON.stringify(id)}`, 'id');
  }
}

export async function touchToken(s: SqlSession, id: string, at: Timestamp = now()): Promise<void> {
  if ((await s.run(`UPDATE api_tokens SET last_used = ? WHERE id = ?`, [at, id])) === 0) {
    throw notFound(`id: no API token ${JSON.stringify(id)}`, 'id');
  }
}

export async function createSession(s: SqlSession, fields: SessionFields): Promise<Session> {
  const userId = await requireId(s, 'users', fields.user_id, 'user_id');
  const hash = text(fields.session_hash, 'session_hash');
  if (hash === '') throw invalid('session_hash: must not be empty', 'session_hash');
  const expires = text(fields.expires, 'expires');
  if (Number.isNaN(Date.parse(expires))) throw invalid('expires: must be an ISO 8601 time', 'expires');
  const row = {
    session_hash: hash,
    user_id: userId,
    created: now(),
    expires: new Date(expires).toISOString(),
  };
  await guarded(s, 'session_hash', '(a session hash)', () =>
    s.run(`INSERT INTO sessions (session_hash, user_id, created, expires) VALUES (?, ?, ?, ?)`, [
      row.session_hash,
      row.user_id,
      row.created,
      row.expires,
    ]),
  );
  return row;
}

export async function findLiveSession(
  s: SqlSession,
  sessionHash: string,
  at: Timestamp = now(),
): Promise<Session | undefined> {
  const [row] = await s.all(`SELECT * FROM sessions WHERE session_hash = ? AND expires > ?`, [
    sessionHash,
    at,
  ]);
  return row ? sessionOf(row) : undefined;
}

export async function deleteSession(s: SqlSession, sessionHash: string): Promise<void> {
  await s.run(`DELETE FROM sessions WHERE session_hash = ?`, [sessionHash]);
}

export async function deleteExpiredSessions(s: SqlSession, at: Timestamp = now()): Promise<number> {
  return s.run(`DELETE FROM sessions WHERE expires <= ?`, [at]);
}
