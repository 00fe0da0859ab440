// CKAN's organizations in SQL (part of the catalogue store; store.ts delegates here): the
// organizations, their members' roles, and which datasets they own (packages.owner_org).
import { randomUUID } from 'node:crypto';
import { conflict, notFound } from '../../../process/errors.ts';
import {
  checkId,
  checkName,
  checkRole,
  now,
  type GivenId,
  type Organization,
  type OrganizationChanges,
  type OrganizationFields,
  type OrganizationMembership,
  type OrganizationRef,
  type Role,
} from '../../model.ts';
import { guarded, requireId, text } from './common.ts';
import { num, str } from './rows.ts';
import type { Row, SqlSession } from './session.ts';

const SELECT = `SELECT o.*, (SELECT COUNT(*) FROM packages p WHERE p.owner_org = o.id) AS package_count FROM organizations o`;

export function organizationRefOf(row: Row, prefix = ''): OrganizationRef {
  return {
    id: str(row[`${prefix}id`]),
    name: str(row[`${prefix}name`]),
    title: str(row[`${prefix}title`]),
    description: str(row[`${prefix}description`]),
    image_url: str(row[`${prefix}image_url`]),
    created: str(row[`${prefix}created`]),
  };
}

const organizationOf = (row: Row): Organization => ({
  ...organizationRefOf(row),
  package_count: num(row.package_count),
});

const membershipOf = (row: Row): OrganizationMembership => ({
  organization_id: str(row.organization_id),
  user_id: str(row.user_id),
  role: str(row.role) as Role,
});

/**
 * CKAN keeps groups and organizations in one table, so a name is one or the other, never both
 * (member_create and member_list take either by name): conflict on `name` when `table` has it.
 */
export async function nameFreeIn(
  s: SqlSession,
  table: 'groups' | 'organizations',
  name: string,
): Promise<void> {
  const [taken] = await s.all(`SELECT 1 AS taken FROM ${table} WHERE name = ?`, [name]);
  if (taken) throw conflict(`name: ${JSON.stringify(name)} is already in use`, 'name');
}

export async function createOrganization(
  s: SqlSession,
  fields: OrganizationFields & GivenId,
): Promise<Organization> {
  const name = checkName(fields.name);
  await nameFreeIn(s, 'groups', name);
  const id = fields.id === undefined ? randomUUID() : checkId(fields.id);
  const [taken] = await s.all(`SELECT 1 AS taken FROM organizations WHERE id = ?`, [id]);
  if (taken) throw conflict(`id: ${JSON.stringify(id)} is already in use`, 'id');
  await guarded(s, 'name', name, () =>
    s.run(
      `INSERT INTO organizations (id, name, title, description, image_url, created) VALUES (?, ?, ?, ?, ?, ?)`,
      [
        id,
        name,
        text(fields.title ?? '', 'title'),
        text(fields.description ?? '', 'description'),
        text(fields.image_url ?? '', 'image_url'),
        now(),
      ],
    ),
  );
  return (await getOrganization(s, id))!;
}

export async function getOrganization(s: SqlSession, idOrName: string): Promise<Organization | undefined> {
  const rows = await s.all(`${SELECT} WHERE o.id = ? OR o.name = ?`, [idOrName, idOrName]);
  const row = rows.find((r) => r.id === idOrName) ?? rows[0];
  return row ? organizationOf(row) : undefined;
}

export async function listOrganizations(s: SqlSession): Promise<Organization[]> {
  return (await s.all(`${SELECT} ORDER BY o.name`)).map(organizationOf);
}

export async function patchOrganization(
  s: SqlSession,
  idOrName: string,
  changes: OrganizationChanges,
): Promise<Organization> {
  const current = await getOrganization(s, idOrName);
  if (!current) throw notFound(`id: no organization ${JSON.stringify(idOrName)}`, 'id');
  const name = changes.name === undefined ? current.name : checkName(changes.name);
  await nameFreeIn(s, 'groups', name);
  await guarded(s, 'name', name, () =>
    s.run(`UPDATE organizations SET name = ?, title = ?, description = ?, image_url = ? WHERE id = ?`, [
      name,
      text(changes.title ?? current.title, 'title'),
      text(changes.description ?? current.description, 'description'),
      text(changes.image_url ?? current.image_url, 'image_url'),
      current.id,
    ]),
  );
  return (await getOrganization(s, current.id))!;
}

/** Its datasets stay, unowned (ON DELETE SET NULL); its memberships go. */
export async function deleteOrganization(s: SqlSession, idOrName: string): Promise<void> {
  const id = await requireId(s, 'organizations', idOrName, 'id');
  await s.run(`DELETE FROM organizations WHERE id = ?`, [id]);
}

export async function setOrganizationRole(
  s: SqlSession,
  user: string,
  organization: string,
  role: Role,
): Promise<OrganizationMembership> {
  checkRole(role);
  const userId = await requireId(s, 'users', user, 'username');
  const orgId = await requireId(s, 'organizations', organization, 'id');
  await s.run(
    `INSERT INTO organization_members (organization_id, user_id, role) VALUES (?, ?, ?)
     ON CONFLICT (organization_id, user_id) DO UPDATE SET role = excluded.role`,
    [orgId, userId, role],
  );
  return { organization_id: orgId, user_id: userId, role };
}

export async function removeOrganizationRole(
  s: SqlSession,
  user: string,
  organization: string,
): Promise<void> {
  const userId = await requireId(s, 'users', user, 'username');
  const orgId = await requireId(s, 'organizations', organization, 'id');
  await s.run(`DELETE FROM organization_members WHERE organization_id = ? AND user_id = ?`, [orgId, userId]);
}

/** The memberships of an organization, or of a user (`by` names which the reference is). */
export async function organizationMemberships(
  s: SqlSession,
  by: 'organization' | 'user',
  ref: string,
): Promise<OrganizationMembership[]> {
  const id =
    by === 'organization'
      ? await requireId(s, 'organizations', ref, 'id')
      : await requireId(s, 'users', ref, 'user');
  const [column, order] =
    by === 'organization' ? ['organization_id', 'user_id'] : ['user_id', 'organization_id'];
  const rows = await s.all(`SELECT * FROM organization_members WHERE ${column} = ? ORDER BY ${order}`, [id]);
  return rows.map(membershipOf);
}

/** The owning organizations of these datasets, by dataset id. */
export async function ownersOf(s: SqlSession, ids: string[]): Promise<Map<string, OrganizationRef>> {
  const of = new Map<string, OrganizationRef>();
  if (ids.length === 0) return of;
  const rows = await s.all(
    `SELECT p.id AS package_id, o.* FROM packages p JOIN organizations o ON o.id = p.owner_org
     WHERE p.id IN (${ids.map(() => '?').join(', ')})`,
    ids,
  );
  for (const row of rows) of.set(str(row.package_id), organizationRefOf(row));
  return of;
}

/** The id of the organization an `owner_org` names (id or name); null for none. */
export async function ownerId(s: SqlSession, given: string | null | undefined): Promise<string | null> {
  if (given === null || given === undefined || given === '') return null;
  return requireId(s, 'organizations', text(given, 'owner_org'), 'owner_org');
}
