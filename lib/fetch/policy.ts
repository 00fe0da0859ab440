// The limits the guarded fetch applies, read from configuration. A policy is a plain value so
// tests (and callers with stricter needs) can build their own instead of using the environment.
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { byteSetting, intSetting, setting } from '../process/config.ts';
import { parseAllowList, type AllowList } from './address-policy.ts';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Turns a URL host (IP literal or name, without brackets) into the addresses to connect to. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface FetchPolicy {
  readonly allow: AllowList;
  /** Whole fetch, connection to last body byte, in ms; 0 = no limit. */
  readonly timeoutMs: number;
  /** Name resolution plus TCP/TLS connection, in ms; 0 = no limit. */
  readonly connectTimeoutMs: number;
  /** Largest body, in bytes. */
  readonly maxBytes: number;
  /** Redirects followed; 0 = none. */
  readonly maxRedirects: number;
  /** Every connection resolves through this, so tests never need real DNS. */
  readonly resolve: Resolver;
  /** No fetch at all (an offline install): documents come from the catalogue itself. */
  readonly offline: boolean;
}

/** The system resolver; an IP literal resolves to itself without a query. */
export const systemResolver: Resolver = async (hostname) => {
  const family = isIP(hostname);
  if (family !== 0) return [{ address: hostname, family: family === 4 ? 4 : 6 }];
  const found = await lookup(hostname, { all: true, order: 'verbatim' });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** The policy configured by LABLD_FETCH_* (throws on a malformed setting). */
export function policyFromEnv(env: NodeJS.ProcessEnv = process.env): FetchPolicy {
  return {
    allow: parseAllowList(setting('LABLD_FETCH_ALLOW', env)),
    timeoutMs: intSetting('LABLD_FETCH_TIMEOUT_MS', env),
    connectTimeoutMs: intSetting('LABLD_FETCH_CONNECT_TIMEOUT_MS', env),
    maxBytes: byteSetting('LABLD_FETCH_MAX_BYTES', env),
    maxRedirects: intSetting('LABLD_FETCH_MAX_REDIRECTS', env),
    resolve: systemResolver,
    offline: setting('LABLD_FETCH_OFFLINE', env) === 'true',
  };
}

export type PolicyOverrides = Partial<Omit<FetchPolicy, 'allow'>> & { allow?: string | AllowList };

/** The documented defaults (not the environment) with some values replaced; for tests. */
export function makePolicy(overrides: PolicyOverrides = {}): FetchPolicy {
  const { allow, ...rest } = overrides;
  const base = policyFromEnv({});
  const given = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  return {
    ...base,
    ...given,
    allow: typeof allow === 'string' ? parseAllowList(allow) : (allow ?? base.allow),
  };
}
