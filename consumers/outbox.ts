// The catalogue's outbox relay, the one publisher of what catalogue changes set off: publishes
// the events that actions and chain steps wrote into the store's outbox in their own transaction
// (lib/catalogue/actions/chain-events.ts, triplestore-events.ts), in the order they were written,
// and forgets each once the bus has accepted it. A crash between the publish
// and the forget publishes it again on the next start: at least once, never lost, and the chain's
// consumers drop a second copy (consumers/chain.ts). Several relays (replicas of the catalogue
// consumer) take turns: one holds the outbox while it publishes (CatalogueStore.claimOutbox).
import type { Bus } from '../lib/bus/contract.ts';
import type { TopicCatalog } from '../lib/bus/topics.ts';
import type { CatalogueStore, OutboxEvent } from '../lib/catalogue/store/contract.ts';
import { CHAIN_EVENTS } from '../lib/chain/events.ts';
import { LOAD_EVENT, LOAD_GROUP } from '../lib/contracts/triplestore.ts';
import { onOutboxWritten } from '../lib/catalogue/store/outbox-signal.ts';
import { log } from '../lib/process/log.ts';

/** The consumer group whose topic carries each outbox event (topics.yaml names the topic). */
const READER: Record<OutboxEvent['event'], string> = { ...CHAIN_EVENTS, [LOAD_EVENT]: LOAD_GROUP };

/** How often an idle relay looks for new events, and how long it waits after an error. */
const IDLE_MS = 100;
const ERROR_MS = 2000;
const BATCH = 100;

/**
 * Publishes what is waiting now, holding the outbox (another relay holding it: nothing, 0); how
 * many were published. A publish that fails ends the batch: what went out before it is
 * forgotten (committed), the rest waits, and the failure is thrown after the commit.
 */
export async function relayOnce(bus: Bus, catalog: TopicCatalog, store: CatalogueStore): Promise<number> {
  const failure: { error?: unknown } = {};
  const published = await store.claimOutbox(async (tx) => {
    const sent: number[] = [];
    for (const event of await tx.pendingEvents(BATCH)) {
      try {
        await bus.publish(catalog.topicReadBy(READER[event.event]).name, event.payload, { key: event.key });
      } catch (error) {
        failure.error = error;
        break;
      }
      sent.push(event.seq);
    }
    // One write for the batch (on SQLite, a commit each would be a disk sync each).
    await tx.removeEvents(sent);
    return sent.length;
  });
  if ('error' in failure) throw failure.error;
  return published ?? 0;
}

export interface Relay {
  stop(): Promise<void>;
}

/** Relays until stopped. */
export function startOutboxRelay(
  bus: Bus,
  catalog: TopicCatalog,
  store: () => Promise<CatalogueStore>,
): Relay {
  let stopped = false;
  /** Ends the current rest; `idle`: a rest that news of a write ends too (not one after an error). */
  let wake: (() => void) | undefined;
  let idle = false;
  /** Something was written while the relay was publishing: it looks again before resting. */
  let written = false;
  const pause = (ms: number, wakeable: boolean) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      idle = wakeable;
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  // Written in this process: published at once, not at the next look (a step's next event waits for none).
  const unsubscribe = onOutboxWritten(() => {
    written = true;
    if (idle) wake?.();
  });
  const loop = (async () => {
    while (!stopped) {
      try {
        written = false;
        if ((await relayOnce(bus, catalog, await store())) === 0 && !written) await pause(IDLE_MS, true);
      } catch (error) {
        if (stopped) break;
        log.warn(
          { err: error instanceof Error ? error.message : String(error) },
          'outbox relay: will try again',
        );
        await pause(ERROR_MS, false);
      }
    }
  })();
  return {
    async stop() {
      stopped = true;
      unsubscribe();
      wake?.();
      await loop;
    },
  };
}
