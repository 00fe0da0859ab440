// Who is asking, in two halves. The gateway reads the credential a request carries (an API token
// header or the session cookie) and turns it into a Credential that holds only hashes, so that
// no secret travels on a topic or lands in a log. The catalogue consumer resolves that Credential
// against the store into the Actor that `authorize` decides for.
import type { CatalogueStore } from '../store/contract.ts';
import type { User } from '../model.ts';
import { unauthorized } from '../../process/errors.ts';
import type { Actor, Role } from './authorize.ts';
import { hashSessionId, sessionIdFromCookieHeader } from './sessions.ts';
import { hashToken, tokenFromHeaders, type CredentialHeaders } from './tokens.ts';

export type Credential =
  | { readonly kind: 'anonymous' }
  | { readonly kind: 'token'; readonly hash: string }
  | { readonly kind: 'session'; readonly hash: string };

export const ANONYMOUS: Credential = { kind: 'anonymous' };

/**
 * The bus header a service request carries its caller's credential in (hashes only), so that an
 * operation reads this catalogue's resources with the caller's rights (lib/sources.ts).
 */
export const CREDENTIAL_HEADER = 'x-labld-credential';

/** The header's value for `credential`; undefined for anonymous (no header). */
export function credentialHeader(credential: Credential): string | undefined {
  return credential.kind === 'anonymous' ? undefined : `${credential.kind} ${credential.hash}`;
}

/** The credential a header value names; anything malformed is anonymous. */
export function credentialFromHeader(value: string | undefined): Credential {
  const match = /^(token|session) ([0-9a-f]{16,128})$/.exec(value ?? '');
  return match ? { kind: match[1] as 'token' | 'session', hash: match[2]! } : ANONYMOUS;
}

export interface RequestCredentials extends CredentialHeaders {
  /** The raw `Cookie` header. */
  readonly cookie?: string | undefined;
}

/**
 * The credential of a request: an API token wins over the session cookie (a script's header is
 * deliberate; a cookie may only be lying around). A malformed token header is `unauthorized`.
 * `secure`: the site is served over https (the cookie then has the `__Host-` name).
 */
export function credentialOf(request: RequestCredentials, secure: boolean): Credential {
  const token = tokenFromHeaders(request);
  if (token !== undefined) return { kind: 'token', hash: hashToken(token) };
  const sessionId = sessionIdFromCookieHeader(request.cookie, secure);
  if (sessionId !== undefined) return { kind: 'session', hash: hashSessionId(sessionId) };
  return ANONYMOUS;
}

export interface Viewer {
  readonly actor: Actor;
  /** The logged-in user; undefined for anonymous. */
  readonly user: User | undefined;
  /** The hash of the session the viewer came with (for logout and CSRF); undefined otherwise. */
  readonly sessionHash: string | undefined;
}

const NOBODY: Viewer = { actor: 'anonymous', user: undefined, sessionHash: undefined };

/**
 * The viewer behind a credential. An unknown or revoked API token is `unauthorized` (a script
 * must hear that its token is wrong); an expired or unknown session is simply anonymous (the
 * browser shows the login link).
 */
export async function resolveViewer(store: CatalogueStore, credential: Credential): Promise<Viewer> {
  switch (credential.kind) {
    case 'anonymous':
      return NOBODY;
    case 'token': {
      const token = await store.findTokenByHash(credential.hash);
      if (!token) throw unauthorized('Authorization: this API token is unknown or revoked', 'Authorization');
      await store.touchToken(token.id);
      return viewerOf(store, token.user_id, undefined);
    }
    case 'session': {
      const session = await store.findLiveSession(credential.hash);
      return session ? viewerOf(store, session.user_id, session.session_hash) : NOBODY;
    }
  }
}

/** The viewer user `userId` is (its roles as the store has them now), e.g. the owner of an upload the chain works on. */
export function viewerOfUser(store: CatalogueStore, userId: string): Promise<Viewer> {
  return viewerOf(store, userId, undefined);
}

async function viewerOf(
  store: CatalogueStore,
  userId: string,
  sessionHash: string | undefined,
): Promise<Viewer> {
  const user = await store.getUser(userId);
  if (!user) return NOBODY;
  const memberships = await store.rolesOfUser(user.id);
  const roles = new Map<string, Role>(memberships.map((m) => [m.package_id, m.role]));
  const inOrgs = await store.organizationRolesOfUser(user.id);
  const orgRoles = new Map<string, Role>(inOrgs.map((m) => [m.organization_id, m.role]));
  return { actor: { userId: user.id, sysadmin: user.sysadmin, roles, orgRoles }, user, sessionHash };
}
