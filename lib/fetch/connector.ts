// The undici connector behind the guarded fetch. The address check happens here, at connect
// time, on the addresses actually dialled: the host is resolved once, every address is checked,
// and the socket is opened to exactly those addresses (a second DNS answer, as in DNS
// rebinding, is never consulted). The connected socket's peer is checked once more.
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { Agent, buildConnector } from 'undici';
import { normalHost, refusal, type Destination, type Refusal } from './address-policy.ts';
import { isOwnAddress } from './own-address.ts';
import { AddressRefusedError, ConnectTimeoutError } from './errors.ts';
import type { FetchPolicy, ResolvedAddress } from './policy.ts';

const agents = new WeakMap<FetchPolicy, Agent>();

/**
 * The dispatcher of a policy, shared by its fetches so that connections are kept alive and
 * reused (a new connection per fetch cost ~2 ms each on loopback: checkmapping fetches two
 * documents per call). Reuse is safe: a pooled socket serves only the origin it was opened to,
 * and its address was checked when it connected.
 */
export function guardedAgent(policy: FetchPolicy): Agent {
  let agent = agents.get(policy);
  if (!agent) {
    agent = newAgent(policy);
    agents.set(policy, agent);
  }
  return agent;
}

function newAgent(policy: FetchPolicy): Agent {
  return new Agent({
    connect: guardedConnector(policy),
    // Our own timers bound the fetch; undici's defaults would cut in at other times.
    headersTimeout: 0,
    bodyTimeout: 0,
  });
}

function guardedConnector(policy: FetchPolicy): buildConnector.connector {
  return (options, callback) => {
    const started = Date.now();
    const host = normalHost(options.hostname);
    const destination: Destination = {
      host,
      port: Number(options.port) || (options.protocol === 'https:' ? 443 : 80),
    };
    checkedAddresses(policy, destination).then(
      (addresses) => {
        const limit = policy.connectTimeoutMs;
        const remaining = limit > 0 ? Math.max(1, limit - (Date.now() - started)) : 0;
        const connect = buildConnector({ timeout: remaining, lookup: fixedLookup(addresses) });
        const first = addresses[0]!.address;
        // Node skips `lookup` for IP literals, so dial the checked address itself.
        const target = isIP(host) !== 0 ? { ...options, hostname: first } : options;
        connect(target, (error, socket) => {
          if (error) return callback(error, null);
          const peer = addressRefusal(policy, destination, socket.remoteAddress ?? '', socket.remotePort);
          if (peer) {
            socket.destroy();
            return callback(new AddressRefusedError(peer), null);
          }
          callback(null, socket);
        });
      },
      (error: Error) => callback(error, null),
    );
  };
}

/** The allow list's decision, and never labld's own listening socket whatever it allows. */
export function addressRefusal(
  policy: FetchPolicy,
  destination: Destination,
  address: string,
  port: number = destination.port,
): Refusal | undefined {
  if (isOwnAddress(address, port)) {
    return {
      address: `${address} port ${port}`,
      reason: 'labld itself',
      hint: 'labld never fetches from itself',
    };
  }
  return refusal(policy.allow, destination, address);
}

async function checkedAddresses(policy: FetchPolicy, destination: Destination): Promise<ResolvedAddress[]> {
  const { host } = destination;
  const addresses = await withTimeout(policy.resolve(host), policy.connectTimeoutMs);
  if (addresses.length === 0) {
    throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  }
  // One refused address refuses the host: a name that mixes public and private answers is
  // not trustworthy, and refusing is easier to explain than silently skipping some.
  for (const { address } of addresses) {
    const refused = addressRefusal(policy, destination, address);
    if (refused) throw new AddressRefusedError(refused);
  }
  return addresses;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  if (ms <= 0) return work;
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ConnectTimeoutError()), ms);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** A `lookup` that answers from the already checked addresses, never from DNS. */
function fixedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return (_hostname: string, options: LookupOptions, callback) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable: LookupAddress[] = addresses.filter((a) => wanted === 0 || a.family === wanted);
    const first = usable[0];
    if (!first) {
      const error = Object.assign(new Error('no address of the wanted family'), { code: 'ENOTFOUND' });
      return callback(error, '', 0);
    }
    if (options.all) return callback(null, usable);
    callback(null, first.address, first.family);
  };
}
