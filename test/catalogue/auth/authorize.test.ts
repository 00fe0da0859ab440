// The authorization matrix: every actor × public/private × every action against a table written
// here by hand from the rules (README "Users, tokens and authorization"), not computed by the
// code under test. Letters, in the actor order of ACTORS below:
//   Y allowed, U unauthorized (log in), F forbidden, N not-found (a private dataset stays hidden).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from '../../support/fc.ts';
import { DomainError } from '../../../lib/process/errors.ts';
import {
  ACTION_NAMES,
  authorize,
  demand,
  type Action,
  type Actor,
  type DatasetTarget,
  type Role,
} from '../../../lib/catalogue/auth/authorize.ts';

const DATASET = 'd-1';
const ORG = 'o-1';
/** A role on the dataset, and the same in the organization (which does not own the dataset). */
const holding = (userId: string, role: Role): Actor => ({
  userId,
  sysadmin: false,
  roles: new Map([[DATASET, role]]),
  orgRoles: new Map([[ORG, role]]),
});
const ACTORS: ReadonlyArray<readonly [string, Actor]> = [
  ['anonymous', 'anonymous'],
  ['reader', holding('u-reader', 'reader')],
  ['editor', holding('u-editor', 'editor')],
  ['admin', holding('u-admin', 'admin')],
  // Admin of another dataset and organization: roles must not leak across them.
  [
    'other user',
    {
      userId: 'u-other',
      sysadmin: false,
      roles: new Map([['d-2', 'admin']]),
      orgRoles: new Map([['o-2', 'admin']]),
    },
  ],
  ['sysadmin', { userId: 'u-sys', sysadmin: true, roles: new Map() }],
];

type Row =
  | { readonly on: 'dataset'; readonly public: string; readonly private: string }
  | { readonly on: 'site'; readonly site: string }
  | { readonly on: 'user'; readonly own: string; readonly others: string }
  | { readonly on: 'organization'; readonly organization: string };

const READ = { on: 'dataset', public: 'YYYYYY', private: 'NYYYNY' } as const;
const EDIT = { on: 'dataset', public: 'UFYYFY', private: 'NFYYNY' } as const;
const ADMIN = { on: 'dataset', public: 'UFFYFY', private: 'NFFYNY' } as const;
const ANYONE = { on: 'site', site: 'YYYYYY' } as const;
const LOGIN = { on: 'site', site: 'UYYYYY' } as const;
const SYSADMIN = { on: 'site', site: 'UFFFFY' } as const;
const SELF = { on: 'user', own: 'UYYYYY', others: 'UFFFFY' } as const;
const ORG_ADMIN = { on: 'organization', organization: 'UFFYFY' } as const;

const EXPECTED: Record<string, Row> = {
  'dataset.read': READ,
  'dataset.list': ANYONE,
  'dataset.search': ANYONE,
  'dataset.create': LOGIN,
  'dataset.update': EDIT,
  'dataset.delete': EDIT,
  'resource.read': READ,
  'resource.create': EDIT,
  'resource.update': EDIT,
  'resource.delete': EDIT,
  'datastore.read': READ,
  'datastore.write': EDIT,
  'member.list': ADMIN,
  'member.manage': ADMIN,
  'group.read': ANYONE,
  'group.create': SYSADMIN,
  'group.manage': SYSADMIN,
  'group.membership': EDIT,
  'organization.read': ANYONE,
  'organization.create': SYSADMIN,
  'organization.update': ORG_ADMIN,
  'organization.delete': ORG_ADMIN,
  'organization.member.list': { on: 'organization', organization: 'UYYYFY' },
  'organization.member.manage': ORG_ADMIN,
  'organization.dataset.create': { on: 'organization', organization: 'UFYYFY' },
  'user.list': LOGIN,
  'user.show': { on: 'user', own: 'UYYYYY', others: 'UYYYYY' },
  'user.create': SYSADMIN,
  'user.update': SELF,
  'token.list': SELF,
  'token.create': SELF,
  'token.revoke': SELF,
  'sparql.query': READ,
  'sparql.update': EDIT,
  'triplestore.load': EDIT,
  'chain.retry': EDIT,
  'chain.dead-letters': ADMIN,
};

const LETTER = { unauthorized: 'U', forbidden: 'F', 'not-found': 'N' } as const;

function letter(actor: Actor, action: Action, target?: Parameters<typeof authorize>[2]): string {
  const decision = authorize(actor, action, target);
  return decision.allowed ? 'Y' : LETTER[decision.kind];
}

const dataset = (isPrivate: boolean): DatasetTarget => ({
  id: DATASET,
  private: isPrivate,
  ownerId: 'u-admin',
});
const ownId = (actor: Actor) => (actor === 'anonymous' ? 'u-nobody' : actor.userId);

describe('the authorization matrix', () => {
  it('has a row for every action, and no row for an action that does not exist', () => {
    assert.deepEqual([...ACTION_NAMES].sort(), Object.keys(EXPECTED).sort());
  });

  for (const action of ACTION_NAMES) {
    it(action, () => {
      const row = EXPECTED[action];
      assert.ok(row, `no row for ${action}`);
      const cases: Array<[string, string, (actor: Actor) => string]> =
        row.on === 'dataset'
          ? [
              ['public dataset', row.public, (actor) => letter(actor, action, dataset(false))],
              ['private dataset', row.private, (actor) => letter(actor, action, dataset(true))],
            ]
          : row.on === 'site'
            ? [['site', row.site, (actor) => letter(actor, action)]]
            : row.on === 'organization'
              ? [
                  [
                    'organization',
                    row.organization,
                    (actor) => letter(actor, action, { organizationId: ORG }),
                  ],
                ]
              : [
                  ['own account', row.own, (actor) => letter(actor, action, { userId: ownId(actor) })],
                  [
                    "another's account",
                    row.others,
                    (actor) => letter(actor, action, { userId: 'u-someone-else' }),
                  ],
                ];
      for (const [what, expected, decide] of cases) {
        const actual = ACTORS.map(([, actor]) => decide(actor)).join('');
        const names = ACTORS.map(([name]) => name).join(', ');
        assert.equal(actual, expected, `${action} on ${what} for [${names}]`);
      }
    });
  }
});

describe('authorize, beyond the matrix', () => {
  it('makes a dataset’s owner its admin even without a member row', () => {
    const owner: Actor = { userId: 'u-owner', sysadmin: false, roles: new Map() };
    const target = { id: 'd-9', private: true, ownerId: 'u-owner' };
    assert.deepEqual(authorize(owner, 'member.manage', target), { allowed: true });
    assert.deepEqual(authorize(owner, 'dataset.delete', target), { allowed: true });
  });

  it('refuses a target that does not fit the action, as a programming error', () => {
    const user: Actor = { userId: 'u-1', sysadmin: true, roles: new Map() };
    assert.throws(() => authorize(user, 'dataset.read'), TypeError);
    assert.throws(() => authorize(user, 'dataset.read', { userId: 'u-1' }), TypeError);
    assert.throws(() => authorize(user, 'token.create', dataset(false)), TypeError);
    assert.throws(() => authorize(user, 'dataset.create', dataset(false)), TypeError);
  });

  it('demand throws a DomainError of the decision’s kind, and a hidden dataset reads as missing, without its id', () => {
    assert.throws(
      () => demand('anonymous', 'dataset.update', dataset(false)),
      (e: unknown) => e instanceof DomainError && e.kind === 'unauthorized',
    );
    const other = ACTORS[4]![1];
    assert.throws(() => demand(other, 'dataset.update', dataset(false)), { kind: 'forbidden' });
    assert.throws(() => demand(other, 'dataset.read', dataset(true)), {
      kind: 'not-found',
      message: 'dataset not found',
    });
    // In the caller's words, never with the dataset's id when it was asked for by name.
    assert.throws(() => demand(other, 'dataset.read', dataset(true), 'secret-runs'), {
      kind: 'not-found',
      message: 'dataset not found: secret-runs',
    });
    demand(other, 'dataset.read', dataset(false));
  });
});

// Properties over arbitrary actors, datasets and actions. What is a read and what is a write is
// written here again, independently of the code's table.
const DATASET_READS = ['dataset.read', 'resource.read', 'datastore.read', 'sparql.query'];
const DATASET_WRITES = [
  'dataset.update',
  'dataset.delete',
  'resource.create',
  'resource.update',
  'resource.delete',
  'datastore.write',
  'member.list',
  'member.manage',
  'group.membership',
  'sparql.update',
  'triplestore.load',
  'chain.retry',
  'chain.dead-letters',
];
const SITE_WRITES = ['group.create', 'group.manage', 'user.create'];

describe('authorization properties', () => {
  it('the read and write lists cover every dataset action', () => {
    const datasetActions = Object.entries(EXPECTED)
      .filter(([, row]) => row.on === 'dataset')
      .map(([name]) => name);
    assert.deepEqual([...DATASET_READS, ...DATASET_WRITES].sort(), datasetActions.sort());
  });

  const ids = fc.constantFrom('d-1', 'd-2', 'd-3');
  const userIds = fc.constantFrom('u-1', 'u-2', 'u-3');
  const orgIds = fc.constantFrom('o-1', 'o-2');
  const role = fc.constantFrom<Role>('reader', 'editor', 'admin');
  const actor: fc.Arbitrary<Actor> = fc.oneof(
    fc.constant<Actor>('anonymous'),
    fc.record({
      userId: userIds,
      sysadmin: fc.boolean(),
      roles: fc.array(fc.tuple(ids, role), { maxLength: 3 }).map((entries) => new Map(entries)),
      orgRoles: fc.array(fc.tuple(orgIds, role), { maxLength: 2 }).map((entries) => new Map(entries)),
    }),
  );
  const target = fc.record({
    id: ids,
    private: fc.boolean(),
    ownerId: fc.option(userIds, { nil: undefined }),
    ownerOrg: fc.option(orgIds, { nil: undefined }),
  });
  const inOrg = (a: Exclude<Actor, 'anonymous'>, d: DatasetTarget) =>
    d.ownerOrg !== undefined && a.orgRoles?.has(d.ownerOrg) === true;
  const outsider = (a: Actor, d: DatasetTarget) =>
    a === 'anonymous' || (!a.sysadmin && !a.roles.has(d.id) && d.ownerId !== a.userId && !inOrg(a, d));

  it('no non-sysadmin non-member is ever allowed a write', () => {
    fc.assert(
      fc.property(actor, target, fc.constantFrom(...DATASET_WRITES), (a, d, action) => {
        fc.pre(outsider(a, d));
        assert.equal(authorize(a, action as Action, d).allowed, false);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(actor, fc.constantFrom(...SITE_WRITES), (a, action) => {
        fc.pre(a === 'anonymous' || !a.sysadmin);
        assert.equal(authorize(a, action as Action).allowed, false);
      }),
    );
  });

  it('nobody outside the members and sysadmins reads a private dataset, or learns it exists', () => {
    fc.assert(
      fc.property(actor, target, fc.constantFrom(...DATASET_READS, ...DATASET_WRITES), (a, d, action) => {
        fc.pre(d.private && outsider(a, d));
        // Always what a missing dataset gets: a 401 or a 403 would say the dataset is there.
        assert.deepEqual(authorize(a, action as Action, d), { allowed: false, kind: 'not-found' }, action);
      }),
      { numRuns: 2000 },
    );
  });

  it('a sysadmin is allowed everything', () => {
    fc.assert(
      fc.property(actor, target, fc.constantFrom(...ACTION_NAMES), (a, d, action) => {
        fc.pre(a !== 'anonymous' && a.sysadmin);
        const row = EXPECTED[action]!;
        const t =
          row.on === 'dataset'
            ? d
            : row.on === 'user'
              ? { userId: 'u-x' }
              : row.on === 'organization'
                ? { organizationId: 'o-x' }
                : undefined;
        assert.deepEqual(authorize(a, action, t), { allowed: true });
      }),
    );
  });

  it("a role in the organization that owns a dataset is that role on the dataset (CKAN's rule)", () => {
    const rank = { reader: 1, editor: 2, admin: 3 };
    const needs: Record<string, Role> = {
      'dataset.read': 'reader',
      'dataset.update': 'editor',
      'dataset.delete': 'editor',
      'member.manage': 'admin',
    };
    fc.assert(
      fc.property(role, fc.boolean(), fc.constantFrom(...Object.keys(needs)), (held, isPrivate, action) => {
        const a: Actor = {
          userId: 'u-1',
          sysadmin: false,
          roles: new Map(),
          orgRoles: new Map([['o-1', held]]),
        };
        const owned = { id: 'd-1', private: isPrivate, ownerId: undefined, ownerOrg: 'o-1' };
        const allowed = rank[held] >= rank[needs[action]!];
        assert.equal(authorize(a, action as Action, owned).allowed, allowed);
        // Not through another organization's dataset.
        const elsewhere = { ...owned, ownerOrg: 'o-2' };
        assert.equal(
          authorize(a, action as Action, elsewhere).allowed,
          !isPrivate && action === 'dataset.read',
        );
      }),
    );
  });
});
