// Which IP addresses the guarded fetch may connect to. Everything that is not plain public
// unicast is refused unless the operator's allow list (LABLD_FETCH_ALLOW) names it, so a
// client-given URL cannot reach loopback, the local network or a cloud metadata service.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type IP = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * LABLD_FETCH_ALLOW, parsed. A host rule allows URLs that name that host, whatever private
 * address it resolves to; a range rule allows URLs whose host is an IP literal in the range.
 * Neither reaches across: an IP entry does not admit a name that resolves into it. A rule
 * without a port allows every port.
 */
export interface AllowList {
  readonly hosts: ReadonlyArray<HostRule>;
  readonly ranges: ReadonlyArray<RangeRule>;
}

export interface HostRule {
  /** Lower case, no trailing dot. */
  readonly host: string;
  /** `*.lab.example`: names strictly below `host`, not `host` itself. */
  readonly subdomains: boolean;
  readonly port?: number | undefined;
}

export interface RangeRule {
  readonly net: IP;
  /** A single IP is a range with a full prefix. */
  readonly bits: number;
  readonly port?: number | undefined;
}

/** Where a connection goes on behalf of a URL: its host (normalHost form) and port. */
export interface Destination {
  readonly host: string;
  readonly port: number;
}

export interface Refusal {
  readonly address: string;
  /** Completes "address X is …", e.g. "loopback". */
  readonly reason: string;
  /** How the operator can allow it. */
  readonly hint: string;
}

export const METADATA = 'a cloud metadata address';

// Metadata services hand out cloud credentials; they sit inside denied ranges anyway, but get
// their own name and are only allowed when the allow list names the exact address (a broad
// CIDR such as 169.254.0.0/16 or 0.0.0.0/0 must not open them by accident).
const METADATA_ADDRESSES = [
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, Oracle
  '169.254.170.2', // AWS ECS task credentials
  '100.100.100.200', // Alibaba Cloud
  'fd00:ec2::254', // AWS over IPv6
].map((a) => ipaddr.parse(a));

const V4_REASONS: Record<string, string> = {
  unspecified: 'unspecified',
  broadcast: 'broadcast',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'carrier-grade NAT',
  private: 'private',
};

const V6_REASONS: Record<string, string> = {
  unspecified: 'unspecified',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  uniqueLocal: 'private',
  deprecatedSiteLocal: 'private',
};

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');
const NAT64_V6 = ipaddr.parseCIDR('64:ff9b::/96');

/** Parses an address strictly (no `0x7f.1` or `2130706433` forms) and unwraps IPv4-mapped IPv6. */
export function parseAddress(address: string): IP | undefined {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIP(bare) === 0) return undefined;
  const ip = ipaddr.parse(bare);
  return ip.kind() === 'ipv6' && (ip as ipaddr.IPv6).isIPv4MappedAddress()
    ? (ip as ipaddr.IPv6).toIPv4Address()
    : ip;
}

function isMetadata(ip: IP): boolean {
  return METADATA_ADDRESSES.some(
    (m) => m.kind() === ip.kind() && m.match(ip, ip.kind() === 'ipv4' ? 32 : 128),
  );
}

function v4Reason(ip: ipaddr.IPv4): string | undefined {
  if (isMetadata(ip)) return METADATA;
  const range = ip.range();
  if (range === 'unicast') return undefined;
  return V4_REASONS[range] ?? 'reserved';
}

function v6Reason(ip: ipaddr.IPv6): string | undefined {
  if (isMetadata(ip)) return METADATA;
  const range = ip.range();
  const named = V6_REASONS[range];
  if (named) return named;
  const p = ip.parts;
  // Translation prefixes carry an IPv4 address; judge that one, so NAT64 or 6to4 cannot be
  // used to reach a private IPv4 host while public IPv4 hosts stay reachable.
  if (ip.match(NAT64_V6)) {
    const inner = embedded(p[6], p[7]);
    return inner === undefined ? undefined : `${inner} (through NAT64)`;
  }
  if (range === '6to4') {
    const inner = embedded(p[1], p[2]);
    return inner === undefined ? undefined : `${inner} (through 6to4)`;
  }
  if (range !== 'unicast') return 'reserved';
  // Only 2000::/3 is assigned as global unicast; the rest (::/8, IPv4-compatible, …) is reserved.
  return ip.match(GLOBAL_UNICAST_V6) ? undefined : 'reserved';
}

function embedded(high: number | undefined, low: number | undefined): string | undefined {
  const h = high ?? 0;
  const l = low ?? 0;
  return v4Reason(new ipaddr.IPv4([h >> 8, h & 0xff, l >> 8, l & 0xff]));
}

/** Why the address is refused by default, or undefined for a public unicast address. */
export function deniedReason(address: string): string | undefined {
  const ip = parseAddress(address);
  if (!ip) return 'not a valid IP address';
  return ip.kind() === 'ipv4' ? v4Reason(ip as ipaddr.IPv4) : v6Reason(ip as ipaddr.IPv6);
}

/** Lower case, no brackets, no trailing dot: the form host names are compared in. */
export function normalHost(hostname: string): string {
  const lower = hostname.toLowerCase();
  const bare = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return bare.endsWith('.') ? bare.slice(0, -1) : bare;
}

const portMatches = (rule: { port?: number | undefined }, port: number) =>
  rule.port === undefined || rule.port === port;

function inRanges(allow: AllowList, ip: IP, port: number, exactOnly: boolean): boolean {
  const full = ip.kind() === 'ipv4' ? 32 : 128;
  return allow.ranges.some(
    (r) =>
      r.net.kind() === ip.kind() &&
      (!exactOnly || r.bits === full) &&
      ip.match(r.net, r.bits) &&
      portMatches(r, port),
  );
}

const nameMatches = (rule: HostRule, host: string) =>
  rule.subdomains ? host.endsWith(`.${rule.host}`) : host === rule.host;

function hostAllowed(allow: AllowList, host: string, port: number): boolean {
  return allow.hosts.some((r) => nameMatches(r, host) && portMatches(r, port));
}

/** The operator's way out, worded for the case at hand. */
function hint(allow: AllowList, destination: Destination, ip: IP, literal: boolean): string {
  const { host, port } = destination;
  const coversIp = allow.ranges.some((r) => r.net.kind() === ip.kind() && ip.match(r.net, r.bits));
  const namesHost = allow.hosts.some((r) => nameMatches(r, host));
  if (literal ? coversIp : namesHost) {
    return `LABLD_FETCH_ALLOW allows ${literal ? 'this address' : host} on other ports only, not ${port}`;
  }
  if (coversIp) {
    return `allow the name ${host} with LABLD_FETCH_ALLOW: an IP entry admits only URLs written with that IP`;
  }
  return 'allow it with LABLD_FETCH_ALLOW';
}

/**
 * The decision for connecting to `address` on behalf of a URL naming `destination`: undefined
 * to allow, else why not. Public addresses are always allowed; others only by a host rule
 * matching the URL's host name, or (for an IP literal URL) a range rule, each on its port.
 */
export function refusal(allow: AllowList, destination: Destination, address: string): Refusal | undefined {
  const reason = deniedReason(address);
  if (reason === undefined) return undefined;
  const ip = parseAddress(address);
  if (!ip) return { address, reason, hint: 'a socket must have an IP address' };
  const literal = parseAddress(destination.host) !== undefined;
  if (reason === METADATA) {
    if (literal && inRanges(allow, ip, destination.port, true)) return undefined;
    return {
      address,
      reason,
      hint: 'allow it only by listing the exact address in LABLD_FETCH_ALLOW and naming it in the URL',
    };
  }
  const allowed = literal
    ? inRanges(allow, ip, destination.port, false)
    : hostAllowed(allow, destination.host, destination.port);
  if (allowed) return undefined;
  return { address, reason, hint: hint(allow, destination, ip, literal) };
}

const NAME = /^(\*\.)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\.?$/i;

/** `entry` split into address part and port: `host:80`, `[::1]:80`, `10.0.0.1:80`, or no port. */
function splitPort(entry: string, bad: Error): [string, number | undefined] {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
  const plain = /^([^:]+):(\d+)$/.exec(entry);
  const [address, digits] = bracketed
    ? [bracketed[1]!, bracketed[2]]
    : plain
      ? [plain[1]!, plain[2]]
      : [entry, undefined];
  if (digits === undefined) return [address, undefined];
  const port = Number(digits);
  if (!/^\d{1,5}$/.test(digits) || port < 1 || port > 65535) throw bad;
  return [address, port];
}

/**
 * Parses LABLD_FETCH_ALLOW: comma-separated host names (`files.lab`, `*.lab.example`), IPs and
 * CIDRs, each name or IP optionally with `:port` (`[v6]:port` for IPv6). A bad entry is a
 * configuration error (plain Error), reported at start-up rather than silently ignored.
 */
export function parseAllowList(raw: string): AllowList {
  const hosts: HostRule[] = [];
  const ranges: RangeRule[] = [];
  const single = (ip: IP, port: number | undefined): RangeRule => ({
    net: ip,
    bits: ip.kind() === 'ipv4' ? 32 : 128,
    port,
  });
  for (const entry of raw.split(',').map((e) => e.trim())) {
    if (entry === '') continue;
    const bad = new Error(
      `LABLD_FETCH_ALLOW: ${JSON.stringify(entry)} is not a host name, IP or CIDR (each optionally with :port)`,
    );
    if (entry.includes('/')) {
      const [addr = '', bits = ''] = entry.split('/');
      const ip = parseAddress(addr);
      if (!ip || !/^\d{1,3}$/.test(bits)) throw bad;
      const prefix = Number(bits);
      if (prefix > (ip.kind() === 'ipv4' ? 32 : 128)) throw bad;
      // An IPv4-mapped CIDR (::ffff:10.0.0.0/104) is stored in IPv4 form, as addresses are.
      const mapped = ip.kind() === 'ipv4' && isIP(addr.replace(/^\[|\]$/g, '')) === 6;
      ranges.push({ net: ip, bits: mapped ? Math.max(0, prefix - 96) : prefix });
      continue;
    }
    const bareIp = parseAddress(entry); // an IPv6 address without brackets has no port
    if (bareIp) {
      ranges.push(single(bareIp, undefined));
      continue;
    }
    const [name, port] = splitPort(entry, bad);
    const ip = parseAddress(name);
    if (ip) {
      ranges.push(single(ip, port));
      continue;
    }
    if (entry.startsWith('[') || !NAME.test(name)) throw bad;
    const subdomains = name.startsWith('*.');
    // Normalise as URLs do, so `2130706433` or `0x7f.1` become the address they mean.
    const host = normalHost(new URL(`http://${subdomains ? name.slice(2) : name}/`).hostname);
    const asIp = parseAddress(host);
    if (asIp && !subdomains) ranges.push(single(asIp, port));
    else if (asIp) throw bad;
    else hosts.push({ host, subdomains, port });
  }
  return { hosts, ranges };
}
