// The catalogue store on SQL: one implementation of the contract for both databases, over a
// SqlSession (sqlite.ts, postgres/). Datasets, resources and groups here; users, roles and
// tokens in accounts.ts.
import { randomUUID } from 'node:crypto';
import { conflict, invalid, notFound, unreachable } from '../../../process/errors.ts';
import {
  checkId,
  checkName,
  checkSize,
  METADATA_TEXT,
  checkUrlType,
  now,
  type Dataset,
  type DatasetChanges,
  type DatasetFields,
  type DerivationKey,
  type GivenId,
  type Group,
  type GroupFields,
  type GroupRef,
  type Resource,
  type ResourceChanges,
  type ResourceFields,
} from '../../model.ts';
import type {
  CatalogueStore,
  DatasetPage,
  DatasetQuery,
  HandledRequest,
  OutboxEvent,
  Paging,
  PrivateFilter,
  SearchResult,
  SourceStepStatus,
  StepStatusFilter,
} from '../contract.ts';
import type { StatusStep } from '../../../chain/status.ts';
import * as accounts from './accounts.ts';
import * as orgs from './organizations.ts';
import * as chain from './chain.ts';
import { outboxWritten } from '../outbox-signal.ts';
import * as requests from './requests.ts';
import * as page from './page.ts';
import * as search from './search.ts';
import { readLists, touchDataset, writeMetadata } from './metadata.ts';
import type { DeadLetter } from '../../../chain/dead-letters.ts';
import { guarded, requireId, text } from './common.ts';
import { datasetOf, num, resourceOf, str } from './rows.ts';
import type { Param, Row, SqlSession } from './session.ts';

function optText(value: unknown, field: string): string | null {
  return value == null ? null : text(value, field);
}

/** The resource columns of `fields` over `base` (a resource being updated). */
function resourceColumns(fields: ResourceChanges, base?: Resource) {
  const pick = <K extends keyof ResourceFields>(k: K, fallback: Resource[K & keyof Resource]) =>
    fields[k] !== undefined ? fields[k] : base ? base[k as keyof Resource] : fallback;
  return [
    text(pick('name', ''), 'name'),
    text(pick('description', ''), 'description'),
    text(pick('format', ''), 'format'),
    text(pick('url', ''), 'url'),
    checkUrlType(pick('url_type', 'link')),
    checkSize(pick('size', null)),
    text(pick('hash', ''), 'hash'),
    text(pick('mimetype', ''), 'mimetype'),
    optText(pick('blob_key', null), 'blob_key'),
    optText(pick('creator_user_id', null), 'creator_user_id'),
    optText(pick('hadPrimarySource', null), 'hadPrimarySource'),
    optText(pick('wasGeneratedBy', null), 'wasGeneratedBy'),
  ] satisfies Param[];
}

const RESOURCE_COLUMNS =
  'name, description, format, url, url_type, size, hash, mimetype, blob_key, creator_user_id, had_primary_source, was_generated_by';
const RESOURCE_MARKS = RESOURCE_COLUMNS.split(', ')
  .map(() => '?')
  .join(', ');
/** How long a relay's outbox lease lasts unrenewed: a killed relay's outbox waits this long (SQLite). */
const OUTBOX_LEASE_MS = 15_000;
const NEXT_POSITION = `(SELECT COALESCE(MAX(position) + 1, 0) FROM resources WHERE package_id = ?)`;

function visibility(filter: PrivateFilter, params: Param[]): string {
  const who = filter.includePrivateFor;
  if (who === 'all') return 'TRUE';
  if (who === undefined) return 'NOT p.private';
  params.push(text(who, 'includePrivateFor'), who);
  // A member of the owning organization, in any role, reads its private datasets (CKAN's rule).
  return `(NOT p.private OR EXISTS (SELECT 1 FROM memberships m WHERE m.package_id = p.id AND m.user_id = ?)
    OR EXISTS (SELECT 1 FROM organization_members om WHERE om.organization_id = p.owner_org AND om.user_id = ?))`;
}

/** The id given, checked and not in use (conflict on `id`), or a new one. */
async function freeId(s: SqlSession, table: 'packages' | 'resources', given: string | undefined) {
  if (given === undefined) return randomUUID();
  const id = checkId(given);
  const [taken] = await s.all(`SELECT 1 AS taken FROM ${table} WHERE id = ?`, [id]);
  if (taken) throw conflict(`id: ${JSON.stringify(id)} is already in use`, 'id');
  return id;
}

export class SqlCatalogueStore implements CatalogueStore {
  readonly #s: SqlSession;
  readonly #close: () => Promise<void>;
  /** Who this store is when it holds the outbox's lease (SQLite), and whether it is holding it. */
  readonly #holder = randomUUID();
  #leasing = false;

  /** Inside a transaction: whether it wrote to the outbox, told once the outermost one commits. */
  readonly #written: { events: boolean } | undefined;

  constructor(
    session: SqlSession,
    close: () => Promise<void> = () => session.close(),
    written?: { events: boolean },
  ) {
    this.#s = session;
    this.#close = close;
    this.#written = written;
  }

  // --- datasets -------------------------------------------------------------------------

  async #datasets(rows: Row[]): Promise<Dataset[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => str(r.id));
    const groups = await this.#s.all(
      `SELECT gm.package_id, g.id, g.name, g.title FROM group_members gm JOIN groups g ON g.id = gm.group_id
       WHERE gm.package_id IN (${ids.map(() => '?').join(', ')}) ORDER BY g.name`,
      ids,
    );
    const of = new Map<string, GroupRef[]>(ids.map((id) => [id, []]));
    for (const g of groups)
      of.get(str(g.package_id))?.push({ id: str(g.id), name: str(g.name), title: str(g.title) });
    const lists = await readLists(this.#s, ids);
    const owners = await orgs.ownersOf(this.#s, ids);
    return rows.map((r) =>
      datasetOf(r, of.get(str(r.id)) ?? [], lists.get(str(r.id)), owners.get(str(r.id)) ?? null),
    );
  }

  async createDataset(fields: DatasetFields & GivenId): Promise<Dataset> {
    const name = checkName(fields.name);
    const given = optText(fields.creator_user_id, 'creator_user_id');
    const creator = given === null ? null : await requireId(this.#s, 'users', given, 'creator_user_id');
    const id = await freeId(this.#s, 'packages', fields.id);
    const owner = await orgs.ownerId(this.#s, fields.owner_org);
    const at = now();
    await guarded(this.#s, 'name', name, () =>
      this.#s.run(
        `INSERT INTO packages (id, name, title, notes, private, creator_user_id, owner_org, metadata_created, metadata_modified)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          id,
          name,
          text(fields.title ?? '', 'title'),
          text(fields.notes ?? '', 'notes'),
          fields.private ? 1 : 0,
          creator,
          owner,
          at,
          at,
        ],
      ),
    );
    await writeMetadata(this.#s, id, fields);
    return (await this.getDataset(id))!;
  }

  async getDataset(idOrName: string): Promise<Dataset | undefined> {
    const rows = await this.#s.all(`SELECT * FROM packages WHERE id = ? OR name = ?`, [idOrName, idOrName]);
    const row = rows.find((r) => r.id === idOrName) ?? rows[0];
    return row ? (await this.#datasets([row]))[0] : undefined;
  }

  async datasetPage(idOrName: string): Promise<DatasetPage | undefined> {
    const dataset = await this.getDataset(idOrName);
    return dataset && page.datasetPage(this.#s, dataset);
  }

  async updateDataset(idOrName: string, fields: DatasetFields): Promise<Dataset> {
    const { title = '', notes = '', private: isPrivate = false, tags = [], extras = [] } = fields;
    const texts = Object.fromEntries(METADATA_TEXT.map((k) => [k, fields[k] ?? '']));
    return this.patchDataset(idOrName, {
      ...texts,
      ...(fields.owner_org !== undefined ? { owner_org: fields.owner_org } : {}),
      name: fields.name,
      title,
      notes,
      private: isPrivate,
      tags,
      extras,
    });
  }

  async patchDataset(idOrName: string, changes: DatasetChanges): Promise<Dataset> {
    const current = await this.getDataset(idOrName);
    if (!current) throw notFound(`id: no dataset ${JSON.stringify(idOrName)}`, 'id');
    const name = changes.name === undefined ? current.name : checkName(changes.name);
    const owner =
      changes.owner_org === undefined ? current.owner_org : await orgs.ownerId(this.#s, changes.owner_org);
    await guarded(this.#s, 'name', name, () =>
      this.#s.run(
        `UPDATE packages SET name = ?, title = ?, notes = ?, private = ?, owner_org = ?, metadata_modified = ? WHERE id = ?`,
        [
          name,
          text(changes.title ?? current.title, 'title'),
          text(changes.notes ?? current.notes, 'notes'),
          (changes.private ?? current.private) ? 1 : 0,
          owner,
          now(),
          current.id,
        ],
      ),
    );
    await writeMetadata(this.#s, current.id, changes);
    return (await this.getDataset(current.id))!;
  }

  async deleteDataset(idOrName: string): Promise<void> {
    const id = await requireId(this.#s, 'packages', idOrName, 'id');
    // Resources, roles and group memberships go with it (ON DELETE CASCADE).
    await this.#s.run(`DELETE FROM packages WHERE id = ?`, [id]);
  }

  async listDatasets(query: PrivateFilter & Paging = {}): Promise<Dataset[]> {
    return (await this.searchDatasets({ ...query, sort: 'name asc' })).results;
  }

  async searchDatasets(query: DatasetQuery = {}): Promise<SearchResult<Dataset>> {
    return search.searchDatasets(
      this.#s,
      query,
      (params) => visibility(query, params),
      (rows) => this.#datasets(rows),
    );
  }

  // --- resources ------------------------------------------------------------------------

  async createResource(datasetIdOrName: string, fields: ResourceFields & GivenId): Promise<Resource> {
    const columns = resourceColumns(fields);
    return this.#atomic(async (s, store) => {
      const packageId = await requireId(s, 'packages', datasetIdOrName, 'package_id');
      const id = await freeId(s, 'resources', fields.id);
      const at = now();
      await guarded(s, 'creator_user_id', '', () =>
        s.run(
          `INSERT INTO resources (id, package_id, position, created, last_modified, ${RESOURCE_COLUMNS})
           VALUES (?, ?, ${NEXT_POSITION}, ?, ?, ${RESOURCE_MARKS})`,
          [id, packageId, packageId, at, at, ...columns],
        ),
      );
      await touchDataset(s, packageId);
      return (await store.getResource(id))!;
    });
  }

  async getResource(id: string): Promise<Resource | undefined> {
    const [row] = await this.#s.all(`SELECT * FROM resources WHERE id = ?`, [id]);
    return row ? resourceOf(row) : undefined;
  }

  async updateResource(id: string, changes: ResourceChanges): Promise<Resource> {
    const current = await this.getResource(id);
    if (!current) throw notFound(`id: no resource ${JSON.stringify(id)}`, 'id');
    const set = RESOURCE_COLUMNS.split(', ')
      .map((c) => `${c} = ?`)
      .join(', ');
    await guarded(this.#s, 'creator_user_id', '', () =>
      this.#s.run(`UPDATE resources SET ${set}, last_modified = ? WHERE id = ?`, [
        ...resourceColumns(changes, current),
        now(),
        id,
      ]),
    );
    await touchDataset(this.#s, current.package_id);
    return (await this.getResource(id))!;
  }

  async deleteResource(id: string): Promise<void> {
    const [gone] = await this.#s.all(`DELETE FROM resources WHERE id = ? RETURNING package_id`, [id]);
    if (!gone) throw notFound(`id: no resource ${JSON.stringify(id)}`, 'id');
    await touchDataset(this.#s, str(gone.package_id));
  }

  async listResources(datasetIdOrName: string): Promise<Resource[]> {
    const packageId = await requireId(this.#s, 'packages', datasetIdOrName, 'package_id');
    const rows = await this.#s.all(`SELECT * FROM resources WHERE package_id = ? ORDER BY position, id`, [
      packageId,
    ]);
    return rows.map(resourceOf);
  }

  async upsertDerived(key: DerivationKey, fields: ResourceFields): Promise<Resource> {
    const columns = resourceColumns(fields);
    const step = text(key.step, 'step');
    if (step === '') throw invalid('step: must not be empty', 'step');
    return this.#atomic(async (s, store) => {
      const packageId = await requireId(s, 'packages', key.package_id, 'package_id');
      const source = await store.getResource(key.source_resource_id);
      if (!source || source.package_id !== packageId) {
        throw notFound(
          `source_resource_id: no resource ${JSON.stringify(key.source_resource_id)} in this dataset`,
          'source_resource_id',
        );
      }
      const at = now();
      const update = RESOURCE_COLUMNS.split(', ')
        .map((c) => `${c} = excluded.${c}`)
        .join(', ');
      // One statement, so that two steps finishing at once still leave one resource.
      const [row] = await s.all(
        `INSERT INTO resources (id, package_id, position, created, last_modified, derived_from, derivation_step, ${RESOURCE_COLUMNS})
         VALUES (?, ?, ${NEXT_POSITION}, ?, ?, ?, ?, ${RESOURCE_MARKS})
         ON CONFLICT (package_id, derived_from, derivation_step)
         DO UPDATE SET ${update}, last_modified = excluded.last_modified
         RETURNING id`,
        [randomUUID(), packageId, packageId, at, at, source.id, step, ...columns],
      );
      await touchDataset(s, packageId);
      return (await store.getResource(str(row?.id)))!;
    });
  }

  async deleteDerivedFrom(sourceResourceId: string): Promise<string[]> {
    return this.#atomic(async (s) => {
      const deleted: string[] = [];
      let frontier = [sourceResourceId];
      // Transitively: the descriptor derived from a CSV, then the graph derived from the descriptor.
      while (frontier.length > 0) {
        const rows = await s.all(
          `SELECT id FROM resources WHERE derived_from IN (${frontier.map(() => '?').join(', ')})`,
          frontier,
        );
        frontier = rows.map((r) => str(r.id)).filter((id) => !deleted.includes(id));
        deleted.push(...frontier);
      }
      for (const id of deleted) await s.run(`DELETE FROM resources WHERE id = ?`, [id]);
      return deleted;
    });
  }

  // --- groups ---------------------------------------------------------------------------

  // --- the chain (chain.ts) ---------------------------------------------------------------
  addEvent = async (event: OutboxEvent) => {
    await chain.addEvent(this.#s, event);
    // Outside a transaction it is committed now; inside, when the outermost one commits.
    if (this.#written) this.#written.events = true;
    else outboxWritten();
  };
  pendingEvents = (limit: number) => chain.pendingEvents(this.#s, limit);
  removeEvents = (seqs: readonly number[]) => chain.removeEvents(this.#s, seqs);
  claimOutbox<T>(work: (tx: CatalogueStore) => Promise<T>): Promise<T | undefined> {
    if (this.#s.dialect === 'postgres') {
      return this.#atomic(async (tx, store) => ((await chain.lockOutbox(tx)) ? work(store) : undefined));
    }
    return this.#leased(work);
  }

  /**
   * SQLite's claim: a lease, renewed while `work` runs, and no transaction, because SQLite has
   * one write lock per file and a relay that held it while publishing to Kafka kept every other
   * catalogue write of every process waiting (seen past the 30 s busy timeout in CI).
   */
  async #leased<T>(work: (store: CatalogueStore) => Promise<T>): Promise<T | undefined> {
    if (this.#leasing) return undefined;
    this.#leasing = true;
    const lease = () => {
      const at = new Date();
      return chain.leaseOutbox(this.#s, this.#holder, at, new Date(at.getTime() + OUTBOX_LEASE_MS));
    };
    try {
      if (!(await lease())) return undefined;
      let renewing: Promise<unknown> = Promise.resolve();
      const renewal = setInterval(() => {
        renewing = lease().catch(() => undefined);
      }, OUTBOX_LEASE_MS / 3);
      try {
        return await work(this);
      } finally {
        clearInterval(renewal);
        await renewing; // a renewal landing after the release would hold the outbox again
        await chain.releaseOutbox(this.#s, this.#holder);
      }
    } finally {
      this.#leasing = false;
    }
  }
  putStepStatus = (row: SourceStepStatus) => chain.putStepStatus(this.#s, row);
  getStepStatus = (source: string, step: StatusStep) => chain.getStepStatus(this.#s, source, step);
  listStepStatus = (filter: StepStatusFilter) => chain.listStepStatus(this.#s, filter);
  deleteStepStatus = (source: string) => chain.deleteStepStatus(this.#s, source);
  addDeadLetter = (letter: DeadLetter) => chain.addDeadLetter(this.#s, letter);
  getDeadLetter = (id: string) => chain.getDeadLetter(this.#s, id);
  listDeadLetters = (filter: { package_id: string }) => chain.listDeadLetters(this.#s, filter);
  deleteDeadLetters = (filter: { id: string } | { source_resource_id: string; group?: string }) =>
    chain.deleteDeadLetters(this.#s, filter);

  async createGroup(fields: GroupFields): Promise<Group> {
    const name = checkName(fields.name);
    await orgs.nameFreeIn(this.#s, 'organizations', name);
    const id = randomUUID();
    await guarded(this.#s, 'name', name, () =>
      this.#s.run(`INSERT INTO groups (id, name, title, description, created) VALUES (?, ?, ?, ?, ?)`, [
        id,
        name,
        text(fields.title ?? '', 'title'),
        text(fields.description ?? '', 'description'),
        now(),
      ]),
    );
    return (await this.getGroup(id))!;
  }

  #groupSelect = `SELECT g.*, (SELECT COUNT(*) FROM group_members gm WHERE gm.group_id = g.id) AS package_count FROM groups g`;

  #groupOf = (row: Row): Group => ({
    id: str(row.id),
    name: str(row.name),
    title: str(row.title),
    description: str(row.description),
    created: str(row.created),
    package_count: num(row.package_count),
  });

  async getGroup(idOrName: string): Promise<Group | undefined> {
    const rows = await this.#s.all(`${this.#groupSelect} WHERE g.id = ? OR g.name = ?`, [idOrName, idOrName]);
    const row = rows.find((r) => r.id === idOrName) ?? rows[0];
    return row ? this.#groupOf(row) : undefined;
  }

  async listGroups(): Promise<Group[]> {
    return (await this.#s.all(`${this.#groupSelect} ORDER BY g.name`)).map(this.#groupOf);
  }

  async addGroupMember(group: string, dataset: string): Promise<void> {
    const groupId = await requireId(this.#s, 'groups', group, 'group');
    const packageId = await requireId(this.#s, 'packages', dataset, 'package_id');
    await this.#s.run(
      `INSERT INTO group_members (group_id, package_id) VALUES (?, ?) ON CONFLICT (group_id, package_id) DO NOTHING`,
      [groupId, packageId],
    );
  }

  async removeGroupMember(group: string, dataset: string): Promise<void> {
    const groupId = await requireId(this.#s, 'groups', group, 'group');
    const packageId = await requireId(this.#s, 'packages', dataset, 'package_id');
    await this.#s.run(`DELETE FROM group_members WHERE group_id = ? AND package_id = ?`, [
      groupId,
      packageId,
    ]);
  }

  // --- organizations (organizations.ts) ---------------------------------------------------

  createOrganization: CatalogueStore['createOrganization'] = (f) => orgs.createOrganization(this.#s, f);
  getOrganization: CatalogueStore['getOrganization'] = (o) => orgs.getOrganization(this.#s, o);
  listOrganizations: CatalogueStore['listOrganizations'] = () => orgs.listOrganizations(this.#s);
  patchOrganization: CatalogueStore['patchOrganization'] = (o, c) => orgs.patchOrganization(this.#s, o, c);
  deleteOrganization: CatalogueStore['deleteOrganization'] = (o) => orgs.deleteOrganization(this.#s, o);
  setOrganizationRole: CatalogueStore['setOrganizationRole'] = (u, o, r) =>
    orgs.setOrganizationRole(this.#s, u, o, r);
  removeOrganizationRole: CatalogueStore['removeOrganizationRole'] = (u, o) =>
    orgs.removeOrganizationRole(this.#s, u, o);
  membersOfOrganization: CatalogueStore['membersOfOrganization'] = (o) =>
    orgs.organizationMemberships(this.#s, 'organization', o);
  organizationRolesOfUser: CatalogueStore['organizationRolesOfUser'] = (u) =>
    orgs.organizationMemberships(this.#s, 'user', u);

  // --- users, roles, tokens (accounts.ts) -----------------------------------------------

  createUser: CatalogueStore['createUser'] = (f) => accounts.createUser(this.#s, f);
  getUser: CatalogueStore['getUser'] = (u) => accounts.getUser(this.#s, u);
  updateUser: CatalogueStore['updateUser'] = (u, c) => accounts.updateUser(this.#s, u, c);
  listUsers: CatalogueStore['listUsers'] = () => accounts.listUsers(this.#s);
  setRole: CatalogueStore['setRole'] = (u, d, r) => accounts.setRole(this.#s, u, d, r);
  removeRole: CatalogueStore['removeRole'] = (u, d) => accounts.removeRole(this.#s, u, d);
  roleOf: CatalogueStore['roleOf'] = (u, d) => accounts.roleOf(this.#s, u, d);
  rolesOfUser: CatalogueStore['rolesOfUser'] = (u) => accounts.rolesOfUser(this.#s, u);
  membersOfDataset: CatalogueStore['membersOfDataset'] = (d) => accounts.membersOfDataset(this.#s, d);
  createToken: CatalogueStore['createToken'] = (f) => accounts.createToken(this.#s, f);
  findTokenByHash: CatalogueStore['findTokenByHash'] = (h) => accounts.findTokenByHash(this.#s, h);
  listTokens: CatalogueStore['listTokens'] = (u) => accounts.listTokens(this.#s, u);
  revokeToken: CatalogueStore['revokeToken'] = (id) => accounts.revokeToken(this.#s, id);
  touchToken: CatalogueStore['touchToken'] = (id, at) => accounts.touchToken(this.#s, id, at);
  createSession: CatalogueStore['createSession'] = (f) => accounts.createSession(this.#s, f);
  findLiveSession: CatalogueStore['findLiveSession'] = (h, at) => accounts.findLiveSession(this.#s, h, at);
  deleteSession: CatalogueStore['deleteSession'] = (h) => accounts.deleteSession(this.#s, h);
  deleteExpiredSessions: CatalogueStore['deleteExpiredSessions'] = (at) =>
    accounts.deleteExpiredSessions(this.#s, at);

  // --- requests handled once (requests.ts) --------------------------------------------------

  handleOnce<T>(request: HandledRequest, work: (tx: CatalogueStore) => Promise<T>): Promise<T> {
    return this.#atomic((tx, store) => requests.handleOnce(tx, request, () => work(store)));
  }
  forgetHandledRequests = (before: Date) => requests.forgetHandled(this.#s, before);

  // --- lifecycle ------------------------------------------------------------------------

  transaction<T>(work: (tx: CatalogueStore) => Promise<T>): Promise<T> {
    return this.#atomic((_, store) => work(store));
  }

  /** Work on the session of a transaction (and a store on it); inside one already, that one. */
  async #atomic<T>(work: (s: SqlSession, store: SqlCatalogueStore) => Promise<T>): Promise<T> {
    const written = this.#written ?? { events: false };
    const result = await this.#s.transaction((tx) =>
      work(tx, tx === this.#s ? this : new SqlCatalogueStore(tx, undefined, written)),
    );
    if (!this.#written && written.events) outboxWritten();
    return result;
  }

  async ready(): Promise<void> {
    try {
      await this.#s.all(`SELECT 1 AS ok`);
    } catch {
      throw unreachable('the catalogue database does not answer', 'catalogue');
    }
  }

  close(): Promise<void> {
    return this.#close();
  }
}
