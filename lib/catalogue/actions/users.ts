// user_show, API tokens (api_token_create/list/revoke) and status_show. A token is shown once,
// when it is made; the store keeps only its hash (lib/catalogue/auth/tokens.ts).
import { notFound } from '../../process/errors.ts';
import { CATALOGUE_ACTIONS, isActionName } from '../../contracts/catalogue.ts';
import { demand } from '../auth/authorize.ts';
import type { Viewer } from '../auth/actor.ts';
import { createToken, hashToken } from '../auth/tokens.ts';
import type { User } from '../model.ts';
import type { CatalogueStore } from '../store/contract.ts';
import type { Action } from './context.ts';
import { ckanTime, userDict } from './dicts.ts';
import { bool, optional, required, type Params } from './params.ts';

/**
 * The user a parameter names (default: the viewer). Asked of `demand` before saying it does not
 * exist, so that an anonymous caller learns nothing about which names are taken.
 */
async function userOf(
  store: CatalogueStore,
  viewer: Viewer,
  ref: string | undefined,
  action: 'user.show' | 'token.list' | 'token.create',
  field: string,
): Promise<User> {
  const name = ref ?? viewer.user?.id ?? '';
  const user = name === '' ? undefined : await store.getUser(name);
  demand(viewer.actor, action, { userId: user?.id ?? name });
  if (!user) throw notFound(`user not found: ${name}`, field);
  return user;
}

const userShow: Action = async (deps, viewer, params) => {
  const user = await userOf(deps.store, viewer, optional(params, 'id'), 'user.show', 'id');
  const full = viewer.user !== undefined && (viewer.user.id === user.id || viewer.user.sysadmin);
  return userDict(user, full);
};

/** CKAN 2.10 names the owner `user` (id or name); the token is in the answer and nowhere else. */
const apiTokenCreate: Action = async (deps, viewer, params) => {
  const user = await userOf(deps.store, viewer, required(params, 'user', 'user_id'), 'token.create', 'user');
  const name = required(params, 'name');
  const token = createToken();
  await deps.store.createToken({ user_id: user.id, name, token_hash: token.hash });
  return { token: token.token };
};

const apiTokenList: Action = async (deps, viewer, params) => {
  const ref = optional(params, 'user_id') ?? optional(params, 'user');
  const user = await userOf(deps.store, viewer, ref, 'token.list', 'user_id');
  return (await deps.store.listTokens(user.id)).map((t) => ({
    id: t.id,
    name: t.name,
    user_id: t.user_id,
    created_at: ckanTime(t.created),
    last_access: ckanTime(t.last_used),
  }));
};

/**
 * The id of the token to revoke: `jti` (or `id`), or CKAN's `token` itself, looked up by its hash
 * (a token unknown reads as an id no one has).
 */
async function tokenId(store: CatalogueStore, params: Params): Promise<string> {
  const token = optional(params, 'token');
  if (token === undefined || optional(params, 'jti') !== undefined) return required(params, 'jti', 'id');
  return (await store.findTokenByHash(hashToken(token)))?.id ?? '';
}

/**
 * By the token's id (CKAN's `jti`) or the token (CKAN's `token`). A token that is not the caller's is refused as someone
 * else's whether or not it exists, so that token ids cannot be probed; a sysadmin revokes any.
 */
const apiTokenRevoke: Action = async (deps, viewer, params) => {
  const id = await tokenId(deps.store, params);
  const user = viewer.user;
  const own = user !== undefined && (await deps.store.listTokens(user.id)).some((t) => t.id === id);
  // Someone else's account: the caller's own id when the token is theirs, else none of theirs.
  demand(viewer.actor, 'token.revoke', { userId: own ? user.id : '' });
  await deps.store.revokeToken(id);
  return null;
};

/**
 * CKAN's user_list: users in name order, for logged-in callers (labld's user list is not for the
 * internet); `q` keeps names, full names or e-mails (a sysadmin's) containing it.
 */
const userList: Action = async (deps, viewer, params) => {
  demand(viewer.actor, 'user.list');
  const q = (optional(params, 'q') ?? '').toLowerCase();
  const full = viewer.user?.sysadmin === true;
  const allFields = bool(params, 'all_fields') !== false;
  const users = (await deps.store.listUsers()).filter(
    (u) =>
      u.name.toLowerCase().includes(q) ||
      u.fullname.toLowerCase().includes(q) ||
      (full && u.email.toLowerCase().includes(q)),
  );
  return allFields
    ? users.map((u) => userDict(u, full || u.id === viewer.user?.id))
    : users.map((u) => u.name);
};

/** What CKAN clients ask first. `ckan_version`: the CKAN API labld answers as (2.10's actions). */
const statusShow: Action = async (deps) => ({
  site_title: 'labld',
  site_description: 'Tabular lab data to linked data',
  site_url: deps.siteUrl,
  ckan_version: '2.10.0',
  locale_default: 'en',
  // The CKAN plugins whose API labld serves: the DataStore's actions, ckanext-dcat's endpoints.
  extensions: ['datastore', 'dcat'],
});

/**
 * CKAN's help_show answers an action's docstring; labld says what the action is and how it may be
 * called (docs/catalogue.md's table says where it differs from CKAN's). An unknown name: Not Found.
 */
const helpShow: Action = async (_deps, _viewer, params) => {
  const name = required(params, 'name');
  if (!isActionName(name)) throw notFound(`action not found: ${name}`, 'name');
  const how = CATALOGUE_ACTIONS[name] ? 'GET with query parameters or POST' : 'POST';
  const own = name.startsWith('labld_') ? "labld's own action" : `CKAN's ${name}`;
  return `${name}: ${own}, at /api/3/action/${name} (${how}); see labld's README for what differs from CKAN 2.10.`;
};

export const userActions = {
  user_show: userShow,
  api_token_create: apiTokenCreate,
  api_token_list: apiTokenList,
  api_token_revoke: apiTokenRevoke,
  status_show: statusShow,
  user_list: userList,
  help_show: helpShow,
};
