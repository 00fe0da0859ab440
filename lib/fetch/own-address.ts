// labld's own listening sockets, which the guarded fetch never connects to: an allow-list
// entry for `localhost` or 127.0.0.0/8 (there for a lab's file server) must not let a client
// URL, or a redirect, read labld's own /metrics or call its API as if from inside.
import { networkInterfaces } from 'node:os';
import { parseAddress } from './address-policy.ts';

/** `address|port` of every listening server of this process; an unspecified address listens everywhere. */
const listening = new Set<string>();

const normal = (address: string): string => parseAddress(address)?.toNormalizedString() ?? address;

/** Record a server's bound address; the returned function forgets it (on close). */
export function noteListening(address: string, port: number): () => void {
  const key = `${normal(address)}|${port}`;
  listening.add(key);
  return () => listening.delete(key);
}

function isLocal(address: string): boolean {
  const ip = parseAddress(address);
  if (!ip) return false;
  if (ip.range() === 'loopback') return true;
  return Object.values(networkInterfaces()).some((list) =>
    (list ?? []).some((i) => normal(i.address) === ip.toNormalizedString()),
  );
}

/** Whether connecting to `address` on `port` would reach a server of this process. */
export function isOwnAddress(address: string, port: number): boolean {
  if (listening.size === 0) return false;
  const target = normal(address);
  if (listening.has(`${target}|${port}`)) return true;
  const anywhere = ['0.0.0.0', '0:0:0:0:0:0:0:0'].some((any) => listening.has(`${any}|${port}`));
  return anywhere && isLocal(address);
}
