// The catalogue store contract: what the Action API, the web pages, the chain and the CLI may
// rely on, whichever database is underneath (embedded node:sqlite, or PostgreSQL). It keeps
// records and answers plain filters; who may see or change what is decided by the caller
// (lib/catalogue/auth) before it asks. Errors are DomainError kinds with the field concerned:
// `invalid` (a name, role, size…), `not-found` (an id or name that does not exist), `conflict`
// (a name or token hash that is taken).
import type {
  ApiToken,
  ApiTokenFields,
  Dataset,
  DatasetChanges,
  DatasetFields,
  DerivationKey,
  GivenId,
  Group,
  GroupFields,
  Membership,
  Organization,
  OrganizationChanges,
  OrganizationFields,
  OrganizationMembership,
  Resource,
  ResourceChanges,
  ResourceFields,
  Role,
  Session,
  SessionFields,
  Timestamp,
  User,
  UserChanges,
  UserFields,
} from '../model.ts';
import type { FacetItem, FacetQuery, SearchNode, SortKey } from '../search-query.ts';
import type { StatusStep, StepState, StepStatus } from '../../chain/status.ts';
import type { ChainEventName } from '../../chain/events.ts';
import type { DeadLetter } from '../../chain/dead-letters.ts';
import type { ChainStepEvent, ResourceEvent } from '../../contracts/chain.ts';
import type { LOAD_EVENT, LoadEvent } from '../../contracts/triplestore.ts';

/**
 * An event of a catalogue change, kept in the change's transaction until it is published: every
 * side effect of a change leaves this way, whichever door the change came in by.
 */
export type OutboxEvent =
  | {
      /** resource.uploaded/deleted from a change; a step's event from a step, a Retry or a replay. */
      event: ChainEventName;
      /** The message key (the dataset id: one dataset's events stay in order). */
      key: string;
      payload: ResourceEvent | ChainStepEvent;
    }
  | {
      /** The triple store brought in step with the dataset (a load, or a change to its resources). */
      event: typeof LOAD_EVENT;
      key: string;
      payload: LoadEvent;
    };

/** An event of the outbox with its place in the order of writing. */
export type StoredEvent = OutboxEvent & { seq: number };

/**
 * What a dataset's page shows, in one read (issue 25: the page made a dozen round trips): the
 * dataset, its resources in their order, every step status of its sources (its own triple-store
 * load's row included), its chain's dead letters oldest first, and the names of the users who
 * made its resources (by user id).
 */
export interface DatasetPage {
  dataset: Dataset;
  resources: Resource[];
  steps: SourceStepStatus[];
  deadLetters: DeadLetter[];
  makers: Record<string, string>;
}

/** A chain step's status for one source resource. */
/** Which step statuses listStepStatus lists: every field given must hold (at least one is given). */
export interface StepStatusFilter {
  package_id?: string;
  source_resource_id?: string;
  step?: StatusStep;
  state?: StepState;
}

export interface SourceStepStatus {
  source_resource_id: string;
  package_id: string;
  status: StepStatus;
}

/**
 * Which private datasets a listing includes besides the public ones: none (omitted), those on
 * which this user id has a role (on the dataset or in its organization), or all of them (a
 * sysadmin's view, the chain's).
 */
export type PrivateFilter = { includePrivateFor?: string | 'all' };

export interface Paging {
  /** Default 20, at most 1000. */
  limit?: number;
  offset?: number;
}

export interface DatasetQuery extends PrivateFilter, Paging {
  /** Words that must each occur in the name, title or notes (case-insensitive). */
  q?: string;
  /** Only members of this group (id or name). */
  group?: string;
  /** Default `name asc`. */
  sort?: 'name asc' | 'metadata_modified desc';
  /** package_search's q, fq and fq_list as parsed (search-query.ts): every dataset they hold for. */
  where?: SearchNode;
  /** Sort keys in order (wins over `sort`); name and id break ties. */
  order?: SortKey[];
  /** The words the `score` sort key counts. */
  scoreTerms?: string[];
  /** Facet counts wanted, over every dataset found (not only the page). */
  facets?: FacetQuery;
}

/** A page of results and how many there are in all (CKAN's package_search answer). */
export interface SearchResult<T> {
  count: number;
  results: T[];
  /** Per facet field asked for, its values with the most datasets first. */
  facets?: Record<string, FacetItem[]>;
}

/**
 * A client's `Idempotency-Key` as the gateway scoped it (to the caller and the dataset): a
 * client that lost an answer sends the request again, under another request id, with this key.
 */
export interface IdempotencyKey {
  key: string;
  /** The request the key first came with; the same key with another request is a conflict. */
  fingerprint: string;
  /** Until when the key answers its retries; past it, the key is free again. */
  expires: Date;
}

/** A request that writes, by the id its sender gave it (unique per request, kept on a repeat). */
export interface HandledRequest {
  id: string;
  /** What it asks (an action's name): the same id for another operation is a conflict. */
  operation: string;
  /** The client's key, kept with the writes and the answer like the id. */
  idempotency?: IdempotencyKey;
}

export interface CatalogueStore {
  // --- datasets -------------------------------------------------------------------------
  /** With the id given (conflict on `id` if taken), or a new one. */
  createDataset(fields: DatasetFields & GivenId): Promise<Dataset>;
  /** By id or name; undefined when there is none. */
  getDataset(idOrName: string): Promise<Dataset | undefined>;
  /** Replaces name, title, notes and private (left out: their defaults; the creator stays); not-found if absent. */
  updateDataset(idOrName: string, fields: DatasetFields): Promise<Dataset>;
  /** Changes only the fields given. */
  patchDataset(idOrName: string, changes: DatasetChanges): Promise<Dataset>;
  /** Deletes the dataset with its resources, memberships and group memberships. */
  deleteDataset(idOrName: string): Promise<void>;
  /** Datasets in name order. */
  listDatasets(query?: PrivateFilter & Paging): Promise<Dataset[]>;
  searchDatasets(query?: DatasetQuery): Promise<SearchResult<Dataset>>;
  /** By id or name, with what its page shows (DatasetPage); undefined when there is none. */
  datasetPage(idOrName: string): Promise<DatasetPage | undefined>;

  // --- resources ------------------------------------------------------------------------
  /** With the id given (conflict on `id` if taken), or a new one. */
  createResource(datasetIdOrName: string, fields: ResourceFields & GivenId): Promise<Resource>;
  getResource(id: string): Promise<Resource | undefined>;
  /** Changes the fields given; last_modified is now. */
  updateResource(id: string, changes: ResourceChanges): Promise<Resource>;
  deleteResource(id: string): Promise<void>;
  /** The resources of a dataset in position order. */
  listResources(datasetIdOrName: string): Promise<Resource[]>;
  /**
   * The resource a chain step derived from a source: created the first time, replaced in place
   * (same id, position and created time) every time after — never a second one.
   */
  upsertDerived(key: DerivationKey, fields: ResourceFields): Promise<Resource>;
  /** Deletes what was derived from a resource, and what was derived from that; the ids deleted. */
  deleteDerivedFrom(sourceResourceId: string): Promise<string[]>;

  // --- the chain: outbox and step status ------------------------------------------------
  /** Keeps an event to be published (call inside the transaction of the change it reports). */
  addEvent(event: OutboxEvent): Promise<void>;
  /** The oldest events not yet published, in the order they were added. */
  pendingEvents(limit: number): Promise<StoredEvent[]>;
  /** Forgets events once published. */
  removeEvents(seqs: readonly number[]): Promise<void>;
  /**
   * Runs `work` holding the outbox for itself: one relay at a time, so that several relays
   * (replicas) neither publish an event twice nor out of order. Undefined, without running
   * `work`, while another relay holds it. PostgreSQL: in a transaction with an advisory lock;
   * SQLite: under a lease, outside any transaction, so that other writes go on meanwhile.
   */
  claimOutbox<T>(work: (tx: CatalogueStore) => Promise<T>): Promise<T | undefined>;
  /** Writes the status of a step of a source resource, replacing the one it had. */
  putStepStatus(row: SourceStepStatus): Promise<void>;
  getStepStatus(sourceResourceId: string, step: StatusStep): Promise<SourceStepStatus | undefined>;
  /**
   * The step statuses of a dataset's resources, or of one resource; `step` and `state` narrow
   * either, or alone list a step in that state across the catalogue (e.g. every source waiting
   * for a mapping).
   */
  listStepStatus(filter: StepStatusFilter): Promise<SourceStepStatus[]>;
  deleteStepStatus(sourceResourceId: string): Promise<void>;
  /** Keeps a dead letter of the chain; one kept already (the same id) stays as it is. */
  addDeadLetter(letter: DeadLetter): Promise<void>;
  getDeadLetter(id: string): Promise<DeadLetter | undefined>;
  /** A dataset's dead letters, oldest first. */
  listDeadLetters(filter: { package_id: string }): Promise<DeadLetter[]>;
  /** Forgets one dead letter, or a source's (of one consumer group). */
  deleteDeadLetters(filter: { id: string } | { source_resource_id: string; group?: string }): Promise<void>;

  // --- groups ---------------------------------------------------------------------------
  createGroup(fields: GroupFields): Promise<Group>;
  getGroup(idOrName: string): Promise<Group | undefined>;
  listGroups(): Promise<Group[]>;
  /** Puts a dataset into a group; already a member: nothing changes. */
  addGroupMember(groupIdOrName: string, datasetIdOrName: string): Promise<void>;
  removeGroupMember(groupIdOrName: string, datasetIdOrName: string): Promise<void>;

  // --- organizations (CKAN's) ---------------------------------------------------------------
  /** With the id given (conflict on `id` if taken), or a new one; a taken name is a conflict on `name`. */
  createOrganization(fields: OrganizationFields & GivenId): Promise<Organization>;
  getOrganization(idOrName: string): Promise<Organization | undefined>;
  /** Organizations in name order. */
  listOrganizations(): Promise<Organization[]>;
  /** Changes only the fields given; not-found if absent. */
  patchOrganization(idOrName: string, changes: OrganizationChanges): Promise<Organization>;
  /** Deletes it with its memberships; the datasets it owned stay, owned by none. */
  deleteOrganization(idOrName: string): Promise<void>;
  /** Gives a user a role in an organization, replacing the one they had. */
  setOrganizationRole(userIdOrName: string, orgIdOrName: string, role: Role): Promise<OrganizationMembership>;
  removeOrganizationRole(userIdOrName: string, orgIdOrName: string): Promise<void>;
  membersOfOrganization(orgIdOrName: string): Promise<OrganizationMembership[]>;
  organizationRolesOfUser(userIdOrName: string): Promise<OrganizationMembership[]>;

  // --- users ----------------------------------------------------------------------------
  createUser(fields: UserFields): Promise<User>;
  getUser(idOrName: string): Promise<User | undefined>;
  updateUser(idOrName: string, changes: UserChanges): Promise<User>;
  /** Users in name order. */
  listUsers(): Promise<User[]>;

  // --- roles per dataset ----------------------------------------------------------------
  /** Gives a user a role on a dataset, replacing the one it had. */
  setRole(userIdOrName: string, datasetIdOrName: string, role: Role): Promise<Membership>;
  removeRole(userIdOrName: string, datasetIdOrName: string): Promise<void>;
  /** The role of a user on a dataset, if any. */
  roleOf(userIdOrName: string, datasetIdOrName: string): Promise<Role | undefined>;
  rolesOfUser(userIdOrName: string): Promise<Membership[]>;
  membersOfDataset(datasetIdOrName: string): Promise<Membership[]>;

  // --- API tokens -----------------------------------------------------------------------
  createToken(fields: ApiTokenFields): Promise<ApiToken>;
  findTokenByHash(tokenHash: string): Promise<ApiToken | undefined>;
  listTokens(userIdOrName: string): Promise<ApiToken[]>;
  revokeToken(id: string): Promise<void>;
  /** Records that a token was used (at `at`, default now). */
  touchToken(id: string, at?: Timestamp): Promise<void>;

  // --- browser sessions -----------------------------------------------------------------
  createSession(fields: SessionFields): Promise<Session>;
  /** The session with this hash if it has not expired by `at` (default now). */
  findLiveSession(sessionHash: string, at?: Timestamp): Promise<Session | undefined>;
  /** Ends a session (logout); ending one that is gone is not an error. */
  deleteSession(sessionHash: string): Promise<void>;
  /** Forgets sessions expired by `at` (default now); how many. */
  deleteExpiredSessions(at?: Timestamp): Promise<number>;

  // --- requests handled once -------------------------------------------------------------
  /**
   * Runs `work` in a transaction with the request's id kept among its writes, and keeps its
   * answer (JSON data). A request with an id kept already (delivered again) gets that answer
   * back without running `work`, so it writes nothing. `work` that throws keeps nothing.
   * The same for a request with an idempotency key kept already and not expired (the same
   * request sent again); the key with another fingerprint is a conflict naming `Idempotency-Key`.
   */
  handleOnce<T>(request: HandledRequest, work: (tx: CatalogueStore) => Promise<T>): Promise<T>;
  /**
   * Forgets the requests handled before `before` (a repeat of one runs again); how many. For
   * ids the bus can no longer deliver again: older than their topic keeps its messages.
   * Idempotency keys expired by now go too (they are not counted).
   */
  forgetHandledRequests(before: Date): Promise<number>;

  // --- lifecycle ------------------------------------------------------------------------
  /**
   * Runs `work` atomically: every change it makes through `tx` is kept, or none is (it throws).
   * Other callers see none of it until it returns.
   */
  transaction<T>(work: (tx: CatalogueStore) => Promise<T>): Promise<T>;
  /** Throws `unreachable` when the database cannot answer (for /readyz). */
  ready(): Promise<void>;
  close(): Promise<void>;
}
