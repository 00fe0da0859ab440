// labld's own listening sockets, which the guarded fetch never connects to: an allow-list
// entry for `localhost` or 127.0.0.0/8 (there for a lab's file server) must not let a client
// URL, or a redirect, read labld's own /metrics or call its API as if from inside.
//
// The record lives in the process environment because the operations that fetch run in worker
// threads, which share it with the main thread (SHARE_ENV, consumers/workers/pool.ts); a module
// variable would be empty there, and a worker would dial labld freely.
import { networkInterfaces } from 'node:os';
import { parseAddress } from './address-policy.ts';

const KEY = 'LABLD_OWN_SOCKETS';

const normal = (address: string): string => parseAddress(address)?.toNormalizedString() ?? address;

/** `address|port` of every listening server of this process (all its threads). */
function listening(env: NodeJS.ProcessEnv): string[] {
  return (env[KEY] ?? '').split(',').filter((s) => s !== '');
}

function write(env: NodeJS.ProcessEnv, sockets: string[]): void {
  if (sockets.length === 0) delete env[KEY];
  else env[KEY] = sockets.join(',');
}

/** Record a server's bound address; the returned function forgets it (on close). */
export function noteListening(
  address: string,
  port: number,
  env: NodeJS.ProcessEnv = process.env,
): () => void {
  const key = `${normal(address)}|${port}`;
  write(env, [...listening(env), key]);
  return () => {
    const sockets = listening(env);
    const at = sockets.indexOf(key);
    if (at >= 0) sockets.splice(at, 1);
    write(env, sockets);
  };
}

/**
 * Whether a connection to `address` stays on this machine: loopback (all of 127.0.0.0/8 and
 * ::1, so the host name's 127.0.1.1 too), the unspecified address (0.0.0.0 and :: dial the
 * local host), or an address of one of its interfaces.
 */
function isLocal(address: string): boolean {
  const ip = parseAddress(address);
  if (!ip) return false;
  if (ip.range() === 'loopback' || ip.range() === 'unspecified') return true;
  return Object.values(networkInterfaces()).some((list) =>
    (list ?? []).some((i) => normal(i.address) === ip.toNormalizedString()),
  );
}

/**
 * Whether connecting to `address` on `port` could reach a server of this process: the exact
 * socket, or any local address on a port labld listens on (whatever address it is bound to:
 * refusing a neighbour on the same machine and port is cheaper than judging which address
 * form reaches which binding).
 */
export function isOwnAddress(address: string, port: number, env: NodeJS.ProcessEnv = process.env): boolean {
  const sockets = listening(env);
  if (sockets.includes(`${normal(address)}|${port}`)) return true;
  const ours = sockets.some((s) => s.endsWith(`|${port}`)) || configuredPorts(env).includes(port);
  return ours && isLocal(address);
}

/**
 * The ports labld is configured to answer on, for a process that does not listen itself (a
 * consumer run apart from its gateways, `labld serve <group>`): BASE_URL's and PORT, when set.
 */
function configuredPorts(env: NodeJS.ProcessEnv): number[] {
  const ports: number[] = [];
  const base = env['BASE_URL'];
  if (base && URL.canParse(base)) {
    const url = new URL(base);
    ports.push(Number(url.port) || (url.protocol === 'https:' ? 443 : 80));
  }
  if (env['PORT'] && /^\d+$/.test(env['PORT'])) ports.push(Number(env['PORT']));
  return ports;
}
