// The caller's openBIS session (research §3.2). No service account by default: each request
// brings its own openBIS credentials — `Authorization: Basic` (logged in for this request and
// logged out after it, where the original leaked one session per request), `Token` or
// `Bearer` with a session token, or the ELN's `openbis` cookie — which go to openBIS and
// nowhere else (never into a log line or an error). A deployment may name a service account
// (LABLD_OPENBIS_SERVICE_ACCOUNT with ADMIN_PASS) for requests that bring none.
import { basicCredentials } from '../http-basic.ts';
import { setting } from '../process/config.ts';
import { unauthorized } from '../process/errors.ts';
import type { OpenbisClient } from './openbis/client.ts';

export interface Credentials {
  /** The request's Authorization header, as sent. */
  authorization?: string | undefined;
  /** The `openbis` cookie the openBIS ELN sets. */
  cookie?: string | undefined;
}

type Login = { kind: 'login'; user: string; password: string } | { kind: 'token'; token: string };

const FIELD = 'authorization';

/** What the credentials ask for, or an unauthorized error saying what is missing. */
export function readCredentials(credentials: Credentials, env: NodeJS.ProcessEnv = process.env): Login {
  const header = credentials.authorization?.trim();
  if (header !== undefined && header !== '') {
    const match = /^(\S+)\s+(\S.*)$/.exec(header);
    const scheme = match?.[1]?.toLowerCase();
    const value = match?.[2]?.trim() ?? '';
    const basic = basicCredentials(header, FIELD);
    if (basic) return { kind: 'login', ...basic };
    if (scheme === 'token' || scheme === 'bearer') return { kind: 'token', token: value };
    throw unauthorized(
      'authorization: use the Basic, Token or Bearer scheme with openBIS credentials',
      FIELD,
    );
  }
  const cookie = credentials.cookie?.trim();
  if (cookie !== undefined && cookie !== '' && cookie !== 'null') return { kind: 'token', token: cookie };
  const account = setting('LABLD_OPENBIS_SERVICE_ACCOUNT', env);
  if (account !== '') return { kind: 'login', user: account, password: setting('ADMIN_PASS', env) };
  throw unauthorized(
    'authorization: no openBIS credentials (send Authorization: Basic, Token or Bearer, or the openbis cookie)',
    FIELD,
  );
}

/**
 * Runs `work` with an active openBIS session token from the credentials; a session this
 * function logged in is logged out afterwards, whatever `work` did — after the promise `work`
 * passed to `hold`, when it did (an answer streamed on after `work` returned still uses it).
 */
export async function withSession<T>(
  client: OpenbisClient,
  credentials: Credentials,
  work: (token: string, hold: (until: Promise<unknown>) => void) => Promise<T>,
): Promise<T> {
  const login = readCredentials(credentials);
  if (login.kind === 'token') {
    if (!(await client.isSessionActive(login.token))) {
      throw unauthorized('authorization: the openBIS session is not active (log in to openBIS again)', FIELD);
    }
    return work(login.token, () => {});
  }
  const token = await client.login(login.user, login.password);
  if (token === null) throw unauthorized('authorization: openBIS refused the user name or password', FIELD);
  let held: Promise<unknown> | undefined;
  const logout = () => client.logout(token).catch(() => {});
  try {
    return await work(token, (until) => void (held = until));
  } finally {
    if (held === undefined) await logout();
    else void held.then(logout, logout);
  }
}
