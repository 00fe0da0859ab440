// Process wiring: which gateways and consumers run in this process, on which bus. `start` runs
// everything on the embedded bus; `serve` runs one gateway or one consumer group, as the
// scale-out deployment does (one process each, on Kafka).
import { ensureMappingLibrary, mappingGroup } from '../lib/catalogue/mapping-library.ts';
import {
  ensureStarterLibrary,
  repointStarterMapping,
  starterWanted,
} from '../lib/catalogue/starter-library.ts';
import { fetch } from 'undici';
import { catalogOf, openBus, type BusConfig } from '../lib/bus/open.ts';
import type { Bus } from '../lib/bus/contract.ts';
import type { Runtime } from './runtime.ts';
import type { Resource } from '../lib/catalogue/model.ts';
import { blobStoreIn, type BlobStore } from '../lib/blobs/blob-store.ts';
import { SERVICES, defaultBaseUrlFromPort, isServiceName } from '../lib/services.ts';
import { log } from '../lib/process/log.ts';
import { CHAIN_OPERATION } from '../consumers/chain-operations.ts';
import type { ChainEvent, StepResult } from '../consumers/chain.ts';
import {
  CONSUMERS,
  consumersOf,
  startConsumer,
  type Consumer,
  type ConsumerContext,
} from '../consumers/registry.ts';
import { DEAD_LETTERS_PROCESS } from '../consumers/chain-dead-letters.ts';
import { startOutboxRelay, type Relay } from '../consumers/outbox.ts';
import { CATALOGUE_GROUP } from '../lib/contracts/catalogue.ts';
import { WorkerPool } from '../consumers/workers/pool.ts';
import { collectWhenQuiet } from '../lib/process/quiet-collect.ts';
import { serviceGateway } from '../gateways/services.ts';
import { accounts, catalogueGateway } from '../gateways/catalogue.ts';
import {
  createServer,
  rateLimitFromEnv,
  type Gateway,
  type ReadinessCheck,
  type RunningServer,
} from '../gateways/kit/index.ts';
import { serverSecret } from '../lib/catalogue/auth/secrets.ts';
import type { LoginThrottle } from '../lib/catalogue/auth/throttle.ts';
import { baseUrl } from '../lib/services.ts';
import { lazy, processStores, type ProcessStores } from './stores.ts';
import { openSharedStores } from '../lib/shared/open.ts';

export interface ProcessOptions {
  port: number;
  host?: string;
  bus: BusConfig;
  /** The catalogue's login throttle; default one on the real clock (tests give one on a clock they step). */
  loginThrottle?: LoginThrottle;
  /** Whether a first start makes the starter mapping library; default LABLD_STARTER_MAPPINGS. */
  starterMappings?: boolean;
}

export interface Running {
  url: string;
  bus: Bus;
  stop(): Promise<void>;
}

/** What `labld serve` takes: a service, the catalogue, a consumer group, or the dead-letter collectors. */
export function servableNames(): string[] {
  return [
    ...SERVICES,
    'catalogue',
    ...CONSUMERS.filter((c) => c.part !== DEAD_LETTERS_PROCESS).map((c) => c.group),
    DEAD_LETTERS_PROCESS,
  ];
}

async function run(
  options: ProcessOptions,
  parts: (runtime: Runtime) => {
    gateways: Gateway[];
    /** Entries of consumers/registry.ts. */
    consumers: readonly Consumer[];
    rootAlias?: string;
  },
): Promise<Running> {
  // A malformed LABLD_REDIS_URL stops the start here, before anything is opened.
  const shared = await openSharedStores();
  const catalog = catalogOf(options.bus);
  const bus = await openBus(options.bus, catalog).catch(async (error: unknown) => {
    await shared.close();
    throw error;
  });
  let server: RunningServer | undefined;
  let pool: WorkerPool | undefined;
  let relay: Relay | undefined;
  const stores = processStores(options.bus.dataDir);
  try {
    const runtime: Runtime = {
      bus,
      catalog,
      blobs: blobStoreIn(options.bus.dataDir),
      catalogueStore: () => stores.catalogue.get(),
      datastore: () => stores.datastore.get(),
      tripleStore: () => stores.tripleStore.get(),
      shared,
    };
    const { gateways, consumers, rootAlias } = parts(runtime);
    // One pool for every consumer whose work runs in a worker: its workers load each group's operations.
    const sources = consumers.filter((c) => c.runsIn === 'worker').map(({ group }) => ({ group }));
    if (sources.length > 0) {
      pool = new WorkerPool({ sources, dataDir: options.bus.dataDir, documents: shared.documents });
      await pool.start();
    }
    const chain = consumers.some((c) => c.part === 'chain' || c.part === DEAD_LETTERS_PROCESS);
    const offloadTo = pool;
    const context: ConsumerContext = {
      runtime,
      pool,
      ...(chain && {
        chain: {
          // A step's work runs in the pool; chain-forget and the dead-letter collectors need none.
          ...(offloadTo && {
            offload: (group: string, event: ChainEvent, signal: AbortSignal, source?: Resource) =>
              offloadTo.run(
                group,
                CHAIN_OPERATION,
                { event, source },
                { signal, background: true },
              ) as Promise<StepResult>,
          }),
          bus,
          catalog,
          store: await stores.catalogue.get(),
          datastore: await stores.datastore.get(),
          blobs: runtime.blobs,
          siteUrl: baseUrl(),
        },
      }),
    };
    // Joined side by side: on Kafka each join waits for its group's rebalance.
    await Promise.all(consumers.map((consumer) => startConsumer(consumer, context)));
    // Where catalogue actions run, their outbox is relayed to the chain's topics.
    if (consumers.some((c) => c.group === CATALOGUE_GROUP)) {
      relay = startOutboxRelay(bus, catalog, () => stores.catalogue.get());
    }
    const workers = pool;
    const triplestore = consumers.some((c) => c.part === 'triplestore');
    server = await createServer({
      gateways,
      rootAlias,
      port: options.port,
      host: options.host,
      // Uploads beside the blobs they are moved into (a rename, so the same file system).
      dataDir: options.bus.dataDir,
      rateLimit: rateLimitFromEnv(shared.rateLimiter),
      readiness: [
        { name: 'bus', check: () => bus.ready() },
        ...registryCheck(options.bus),
        ...(workers ? [{ name: 'workers', check: () => workers.ready() }] : []),
        ...(shared.kind === 'redis' ? [{ name: 'redis', check: () => shared.ready() }] : []),
        ...storeChecks(stores, {
          // The catalogue's gateway and consumer, and the chain's steps, read and write both.
          both: servesCatalogue(gateways) || consumers.some((c) => c.group === CATALOGUE_GROUP) || chain,
          // The triple store's consumers read the catalogue (which datasets, which resources).
          catalogue: triplestore,
        }),
        ...(triplestore
          ? [{ name: 'triplestore', check: async () => (await stores.tripleStore.get()).ready() }]
          : []),
      ],
    });
    if (servesCatalogue(gateways)) {
      // The starter mapping names its template by URL: the one this process answers at.
      const siteUrl = baseUrl({ ...process.env, PORT: new URL(server.url).port });
      await firstStart(stores, {
        blobs: runtime.blobs,
        siteUrl,
        starterMappings: options.starterMappings ?? starterWanted(),
      });
    }
  } catch (error) {
    await server?.close();
    await relay?.stop();
    await bus.close();
    await pool?.close();
    await closeStores(stores);
    await shared.close();
    throw error;
  }
  const forgetBaseUrl = defaultBaseUrlFromPort(Number(new URL(server.url).port));
  // After a busy spell the main thread's heap goes back to what it holds (lib/process/quiet-collect.ts).
  const quiet = collectWhenQuiet();
  const running: Running = {
    url: server.url,
    bus,
    async stop() {
      quiet.stop();
      await server.close();
      await relay?.stop();
      // The bus first: closing its subscriptions abandons the requests in flight (not committed).
      await bus.close();
      await pool?.close();
      await closeStores(stores);
      await shared.close();
      forgetBaseUrl();
    },
  };
  log.info({ url: server.url, transport: options.bus.transport, client: bus.clientId }, 'labld is listening');
  return running;
}

function servesCatalogue(gateways: Gateway[]): boolean {
  return gateways.some((g) => g.service === 'catalogue');
}

/** The database checks of a process that uses `both` stores, or only the `catalogue` one. */
function storeChecks(stores: ProcessStores, uses: { both: boolean; catalogue: boolean }): ReadinessCheck[] {
  const catalogue = { name: 'catalogue-store', check: async () => (await stores.catalogue.get()).ready() };
  if (uses.both)
    return [catalogue, { name: 'datastore', check: async () => (await stores.datastore.get()).ready() }];
  return uses.catalogue ? [catalogue] : [];
}

/** On Kafka with a schema registry, every publish and read needs it: it answers its subject list. */
function registryCheck(config: BusConfig): ReadinessCheck[] {
  const url = config.transport === 'kafka' ? config.kafka?.registryUrl : undefined;
  if (!url) return [];
  return [
    {
      name: 'schema-registry',
      check: async () => {
        const answer = await fetch(new URL('subjects', url.endsWith('/') ? url : `${url}/`), {
          signal: AbortSignal.timeout(2000),
        });
        await answer.body?.cancel();
        if (!answer.ok) throw new Error(`the schema registry answers ${answer.status}`);
      },
    },
  ];
}

async function closeStores(stores: ProcessStores): Promise<void> {
  await Promise.allSettled([stores.catalogue.close(), stores.datastore.close(), stores.tripleStore.close()]);
}

/**
 * A catalogue's first start: the mapping library's group is made (with the starter library
 * unless switched off), and — no default password —
 * on a catalogue without users it says how to make the first admin.
 */
async function firstStart(
  stores: ProcessStores,
  made: { blobs: BlobStore; siteUrl: string; starterMappings: boolean },
): Promise<void> {
  const group = mappingGroup(); // a misspelt setting stops the start
  try {
    const catalogue = await stores.catalogue.get();
    if ((await ensureMappingLibrary(catalogue, group)) === 'made') {
      log.info({ group }, 'mapping library made');
      // Only with the library: a starter someone deleted is not made again at the next start.
      if (
        made.starterMappings &&
        (await ensureStarterLibrary(catalogue, made.blobs, { siteUrl: made.siteUrl, group })) === 'made'
      )
        log.info({ group }, 'starter mappings made');
    } else if (await repointStarterMapping(catalogue, made.blobs, made.siteUrl)) {
      log.info({ site: made.siteUrl }, "the starter mapping now names its template at this site's URL");
    }
    const users = await catalogue.listUsers();
    if (users.length > 0) return;
    log.warn(
      'the catalogue has no users yet. Make the first admin with: labld user add NAME --admin ' +
        '(it prints a one-time password; on the same LABLD_DATA or LABLD_DATABASE_URL, also while labld runs)',
    );
  } catch (error) {
    // The database may be down at start; /readyz says so, and labld serves what it can.
    log.error(
      { err: error instanceof Error ? error.message : String(error) },
      'the catalogue store cannot be opened',
    );
  }
}

/** The catalogue gateway, authenticating against the process's catalogue store. */
function catalogue(runtime: Runtime, options: ProcessOptions): Gateway {
  const store = runtime.catalogueStore;
  if (!store) throw new Error('the catalogue gateway needs the catalogue store');
  const secret = lazy(() => serverSecret(options.bus.dataDir));
  const throttle = options.loginThrottle;
  return catalogueGateway({
    runtime,
    accounts: accounts({ store, secret: secret.get, baseUrl: baseUrl(), throttle }),
  });
}

/** Everything in one process: the four services, the catalogue and every consumer. */
export function startEmbedded(options: ProcessOptions): Promise<Running> {
  return startAll({ ...options, bus: { ...options.bus, transport: 'embedded' } });
}

/** Everything in one process on the bus the options name (tests run it on Kafka too). */
export function startAll(options: ProcessOptions): Promise<Running> {
  return run(options, (runtime) => ({
    gateways: [...SERVICES.map((name) => serviceGateway(name, runtime)), catalogue(runtime, options)],
    consumers: CONSUMERS,
  }));
}

/**
 * One part: a service gateway (on the embedded bus together with its consumer, which has no
 * other process to run in), the catalogue, or one consumer group (with health and metrics).
 */
export function serveOne(name: string, options: ProcessOptions): Promise<Running> {
  const embedded = options.bus.transport === 'embedded';
  if (isServiceName(name)) {
    return run(options, (runtime) => ({
      gateways: [serviceGateway(name, runtime)],
      consumers: embedded ? consumersOf(name) : [],
      rootAlias: name,
    }));
  }
  if (name === 'catalogue') {
    return run(options, (runtime) => ({
      gateways: [catalogue(runtime, options)],
      // On the embedded bus no other process runs the catalogue's consumers.
      consumers: embedded ? consumersOf('catalogue', 'triplestore', 'chain', DEAD_LETTERS_PROCESS) : [],
    }));
  }
  if (name === DEAD_LETTERS_PROCESS) {
    return run(options, () => ({ gateways: [], consumers: consumersOf(DEAD_LETTERS_PROCESS) }));
  }
  const consumer = CONSUMERS.find((c) => c.group === name && c.part !== DEAD_LETTERS_PROCESS);
  if (consumer) return run(options, () => ({ gateways: [], consumers: [consumer] }));
  throw new Error(`nothing to serve named ${name}; choose one of: ${servableNames().join(', ')}`);
}

/** Stop gracefully on SIGTERM/SIGINT: finish in-flight work, commit, leave the groups. */
export function stopOnSignals(running: Running): void {
  const stop = (signal: string) => {
    log.info({ signal }, 'stopping');
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: String(error) }, 'unclean stop');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
