// Who may do what: the one place the catalogue decides it. The Action API, the pages, the
// datastore and the SPARQL endpoint all ask `authorize` (DESIGN §7), so a rule changes here or
// nowhere. Plain values in and out: the caller loads the actor's roles and the dataset.
//
// The rules, CKAN's where CKAN has one:
// - A public dataset is readable by anyone, a private one only by its members (reader, editor,
//   admin) and sysadmins.
// - Someone who may not read a private dataset, anonymous or logged in, is told it is
//   `not-found`, for writes too: the answer a missing dataset gets. CKAN's pages do this
//   (views/dataset.py turns NotAuthorized from package_show into 404 "Dataset not found"), so a
//   private dataset's name cannot be probed. CKAN's Action API answers 403 there; the answer is
//   decided once here, for the pages and the API alike, and it is the one that does not leak.
// - Other anonymous writes (to a public dataset) are `unauthorized`: log in first.
// - Writes to a dataset (its metadata, resources, datastore tables, triples, its place in the
//   `mappings` group, deleting it) need editor or admin: CKAN's editor role holds
//   update_dataset and delete_dataset. Managing and listing members needs admin (CKAN's
//   can_manage_collaborators). The dataset's owner (its creator) counts as its admin, so it
//   cannot be orphaned by removing member rows.
// - Any logged-in user may create a dataset (and becomes its owner). CKAN ties creation to an
//   organisation; labld has none, so this is CKAN's rule for unowned datasets when
//   create_unowned_dataset is on.
// - Organizations (CKAN's): anyone may read one (its private datasets stay hidden); sysadmins make
//   them (CKAN's user_create_organizations off). A member's role in an organization (member =
//   reader, editor, admin) is their role in every dataset it owns, the better of the two where
//   they also have one on the dataset. Putting a dataset into an organization (create, or
//   owner_org changed) needs editor there; changing, deleting it and managing its members, admin.
// - Groups (the `mappings` group) are made and changed by sysadmins; anyone may read them.
// - Users: listing and showing needs a login (CKAN's public_user_details off: a lab's member
//   list is not for the internet); creating users is for sysadmins (there is no sign-up); a
//   user changes their own account and tokens, a sysadmin anyone's.
// - A sysadmin may do everything.
import { DomainError } from '../../process/errors.ts';

export type Role = 'reader' | 'editor' | 'admin';

export interface UserActor {
  readonly userId: string;
  readonly sysadmin: boolean;
  /** The actor's role in each dataset they are a member of, by dataset id. */
  readonly roles: ReadonlyMap<string, Role>;
  /** The actor's role in each organization they are a member of, by organization id. */
  readonly orgRoles?: ReadonlyMap<string, Role>;
}

export type Actor = 'anonymous' | UserActor;

export interface DatasetTarget {
  readonly id: string;
  readonly private: boolean;
  readonly ownerId: string | undefined;
  /** The id of the organization that owns it, if one does. */
  readonly ownerOrg?: string | undefined;
}

export interface OrganizationTarget {
  readonly organizationId: string;
}

export interface UserTarget {
  readonly userId: string;
}

/** What an action is about: a dataset, a user account, or the site (no target). */
type Scope = 'dataset' | 'organization' | 'user' | 'site';

/** Who may: anyone; any logged-in user; sysadmins; the user themself; a dataset's readers, editors, admins. */
type Requirement = 'anyone' | 'login' | 'sysadmin' | 'self' | Role;

interface ActionRule {
  readonly scope: Scope;
  readonly requires: Requirement;
}

/** Every action of the catalogue: the Action API and the pages map theirs onto these. */
export const ACTIONS = {
  // Datasets (package_show/list/search/create/update/patch/delete; their pages).
  'dataset.read': { scope: 'dataset', requires: 'reader' },
  'dataset.list': { scope: 'site', requires: 'anyone' },
  'dataset.search': { scope: 'site', requires: 'anyone' },
  'dataset.create': { scope: 'site', requires: 'login' },
  'dataset.update': { scope: 'dataset', requires: 'editor' },
  'dataset.delete': { scope: 'dataset', requires: 'editor' },
  // Resources (resource_show and the download, resource_create/update/patch/delete).
  'resource.read': { scope: 'dataset', requires: 'reader' },
  'resource.create': { scope: 'dataset', requires: 'editor' },
  'resource.update': { scope: 'dataset', requires: 'editor' },
  'resource.delete': { scope: 'dataset', requires: 'editor' },
  // Datastore (datastore_search and the table preview; datastore_create/upsert/delete).
  'datastore.read': { scope: 'dataset', requires: 'reader' },
  'datastore.write': { scope: 'dataset', requires: 'editor' },
  // Members of a dataset (package_collaborator_list/create/delete).
  'member.list': { scope: 'dataset', requires: 'admin' },
  'member.manage': { scope: 'dataset', requires: 'admin' },
  // Groups (the `mappings` group): group_show, group_create, group_update/delete, and putting a
  // dataset in or out of a group, which is a change to that dataset.
  'group.read': { scope: 'site', requires: 'anyone' },
  'group.create': { scope: 'site', requires: 'sysadmin' },
  'group.manage': { scope: 'site', requires: 'sysadmin' },
  'group.membership': { scope: 'dataset', requires: 'editor' },
  // Organizations: organization_show/list, organization_create, organization_update/patch/delete,
  // organization_member_list (member_list), organization_member_create/delete, and a dataset put
  // into one (package_create or a change of its owner_org).
  'organization.read': { scope: 'site', requires: 'anyone' },
  'organization.create': { scope: 'site', requires: 'sysadmin' },
  'organization.update': { scope: 'organization', requires: 'admin' },
  'organization.delete': { scope: 'organization', requires: 'admin' },
  'organization.member.list': { scope: 'organization', requires: 'reader' },
  'organization.member.manage': { scope: 'organization', requires: 'admin' },
  'organization.dataset.create': { scope: 'organization', requires: 'editor' },
  // Users and their API tokens.
  'user.list': { scope: 'site', requires: 'login' },
  'user.show': { scope: 'user', requires: 'login' },
  'user.create': { scope: 'site', requires: 'sysadmin' },
  'user.update': { scope: 'user', requires: 'self' },
  'token.list': { scope: 'user', requires: 'self' },
  'token.create': { scope: 'user', requires: 'self' },
  'token.revoke': { scope: 'user', requires: 'self' },
  // The dataset's graph in the triple store: SPARQL reads (SELECT, CONSTRUCT, ASK, DESCRIBE),
  // SPARQL updates, and triplestore_load (the load button).
  'sparql.query': { scope: 'dataset', requires: 'reader' },
  'sparql.update': { scope: 'dataset', requires: 'editor' },
  'triplestore.load': { scope: 'dataset', requires: 'editor' },
  // The automation chain: Retry is an editor's (a write to the resource); the dead letters
  // (messages and errors of the whole pipeline) and replaying them are the dataset admin's.
  'chain.retry': { scope: 'dataset', requires: 'editor' },
  'chain.dead-letters': { scope: 'dataset', requires: 'admin' },
} as const satisfies Record<string, ActionRule>;

export type Action = keyof typeof ACTIONS;

/** The action names, for the matrix test and for the edges that iterate them. */
export const ACTION_NAMES = Object.keys(ACTIONS) as Action[];

export type Decision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly kind: 'unauthorized' | 'forbidden' | 'not-found' };

const ALLOWED: Decision = { allowed: true };
const UNAUTHORIZED: Decision = { allowed: false, kind: 'unauthorized' };
const FORBIDDEN: Decision = { allowed: false, kind: 'forbidden' };
const NOT_FOUND: Decision = { allowed: false, kind: 'not-found' };

const RANK: Record<Role, number> = { reader: 1, editor: 2, admin: 3 };

export function isAction(value: unknown): value is Action {
  return typeof value === 'string' && Object.hasOwn(ACTIONS, value);
}

/**
 * May `actor` do `action` to `target`? `target` is the dataset for dataset actions, the user
 * account for user actions, and absent for site actions; a wrong one is a programming error and
 * throws a TypeError.
 */
export function authorize(actor: Actor, action: Action, target?: Target): Decision {
  const rule: ActionRule = ACTIONS[action];
  const dataset = rule.scope === 'dataset' ? datasetTarget(action, target) : undefined;
  const account = rule.scope === 'user' ? userTarget(action, target) : undefined;
  const organization = rule.scope === 'organization' ? organizationTarget(action, target) : undefined;
  if (rule.scope === 'site' && target !== undefined) throw new TypeError(`${action}: takes no target`);

  if (actor !== 'anonymous' && actor.sysadmin) return ALLOWED;
  switch (rule.requires) {
    case 'anyone':
      return ALLOWED;
    case 'login':
      return actor === 'anonymous' ? UNAUTHORIZED : ALLOWED;
    case 'sysadmin':
      return actor === 'anonymous' ? UNAUTHORIZED : FORBIDDEN;
    case 'self':
      if (actor === 'anonymous') return UNAUTHORIZED;
      return actor.userId === account?.userId ? ALLOWED : FORBIDDEN;
    default:
      return organization
        ? onOrganization(actor, rule.requires, organization)
        : onDataset(actor, rule.requires, dataset as DatasetTarget);
  }
}

export type Target = DatasetTarget | OrganizationTarget | UserTarget;

/**
 * `authorize`, as a DomainError of the decision's kind when it is not allowed. `asked` is the
 * name or id the caller used for the dataset: a hidden dataset reads as missing in the caller's
 * own words, never with an id the caller did not give (that would link a name to its dataset).
 */
export function demand(actor: Actor, action: Action, target?: Target, asked?: string): void {
  const decision = authorize(actor, action, target);
  if (decision.allowed) return;
  throw new DomainError(decision.kind, DETAIL[decision.kind](action, asked));
}

/**
 * The actor's role in a dataset: admin for its owner, else the better of their member role and
 * their role in the organization that owns it; none otherwise.
 */
export function roleIn(actor: Actor, dataset: DatasetTarget): Role | undefined {
  if (actor === 'anonymous') return undefined;
  if (dataset.ownerId !== undefined && dataset.ownerId === actor.userId) return 'admin';
  const own = actor.roles.get(dataset.id);
  const viaOrg = dataset.ownerOrg === undefined ? undefined : actor.orgRoles?.get(dataset.ownerOrg);
  if (own === undefined || viaOrg === undefined) return own ?? viaOrg;
  return RANK[own] >= RANK[viaOrg] ? own : viaOrg;
}

/** An organization is public: whoever lacks the role is told so (401 or 403), never not-found. */
function onOrganization(actor: Actor, needed: Role, organization: OrganizationTarget): Decision {
  if (actor === 'anonymous') return UNAUTHORIZED;
  const role = actor.orgRoles?.get(organization.organizationId);
  return role !== undefined && RANK[role] >= RANK[needed] ? ALLOWED : FORBIDDEN;
}

function onDataset(actor: Actor, needed: Role, dataset: DatasetTarget): Decision {
  const role = roleIn(actor, dataset);
  // One who cannot see a private dataset, anonymous or not, must not learn from a 401 or a 403
  // that it exists, whatever they ask of it.
  if (dataset.private && role === undefined) return NOT_FOUND;
  if (needed === 'reader') return ALLOWED;
  if (actor === 'anonymous') return UNAUTHORIZED;
  if (role === undefined) return FORBIDDEN;
  return RANK[role] >= RANK[needed] ? ALLOWED : FORBIDDEN;
}

function datasetTarget(action: Action, target: Target | undefined): DatasetTarget {
  if (target === undefined || !('private' in target) || typeof target.id !== 'string') {
    throw new TypeError(`${action}: needs the dataset as its target`);
  }
  return target;
}

function userTarget(action: Action, target: Target | undefined): UserTarget {
  if (target === undefined || !('userId' in target) || typeof target.userId !== 'string') {
    throw new TypeError(`${action}: needs the user as its target`);
  }
  return target;
}

function organizationTarget(action: Action, target: Target | undefined): OrganizationTarget {
  if (target === undefined || !('organizationId' in target) || typeof target.organizationId !== 'string') {
    throw new TypeError(`${action}: needs the organization as its target`);
  }
  return target;
}

const DETAIL: Record<'unauthorized' | 'forbidden' | 'not-found', (action: Action, asked?: string) => string> =
  {
    unauthorized: (action) => `${action}: log in or send an API token in the Authorization header`,
    forbidden: (action) => `${action}: not allowed for this user`,
    // The same words as for a dataset that does not exist, on purpose.
    'not-found': (_action, asked) =>
      asked === undefined ? 'dataset not found' : `dataset not found: ${asked}`,
  };
