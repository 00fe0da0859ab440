// Two fixes for kafkajs 2.2.4, applied once at load. kafkajs is unmaintained (its status is in
// ../shared/research/ts-dependencies.md §1) and the upstream fixes are unmerged, so they are
// made here, each on the one method concerned, and only if that method has the expected shape.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// ---- 1. An idle timer loop per connection (tulios/kafkajs#1751; fixes #1755, #1768 unmerged) ----
// Every broker connection's request queue re-arms a timer whether or not a request waits,
// computed as `throttledUntil - now` with throttledUntil = -1: a 1 ms timer loop per connection
// for its whole life (about 6 % of a core for one idle bus here) and Node ≥ 23's
// TimeoutNegativeWarning. The replacement arms the timer only when requests wait; push() and
// every completed request call the check anyway.

interface RequestQueueShape {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

/** kafkajs's own interval for re-checking a queue held back by in-flight limits. */
const RECHECK_MS = 10;

const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as { prototype: RequestQueueShape };
if (typeof RequestQueue?.prototype?.scheduleCheckPendingRequests === 'function') {
  RequestQueue.prototype.scheduleCheckPendingRequests = function (this: RequestQueueShape) {
    if (this.throttleCheckTimeoutId || this.pending.length === 0) return;
    const throttledFor = this.throttledUntil - Date.now();
    this.throttleCheckTimeoutId = setTimeout(
      () => {
        this.throttleCheckTimeoutId = null;
        this.checkPendingRequests();
      },
      throttledFor > 0 ? throttledFor : RECHECK_MS,
    );
  };
}

// ---- 2. A deleted topic breaks every later metadata refresh (tulios/kafkajs#1622, #651) ----
// A client asks for the metadata of every topic it ever used; once one of them is deleted the
// whole answer is UNKNOWN_TOPIC_OR_PARTITION, so a producer that once wrote to a deleted topic
// (a reply topic of a gateway that has shut down) can write to no topic at all any more. The
// replacement, on that error, drops the topics the cluster no longer has from the client's
// list and refreshes once more.

interface TopicList {
  topicMetadata: { topic: string }[];
}

interface ClusterShape {
  targetTopics: Set<string>;
  brokerPool: {
    withBroker(
      callback: (args: { broker: { metadata(topics: string[]): Promise<TopicList> } }) => Promise<TopicList>,
    ): Promise<TopicList | null>;
  };
  refreshMetadata(): Promise<void>;
  refreshMetadataIfNecessary(): Promise<void>;
}

/** Forget target topics that no longer exist; true if any was forgotten. */
async function forgetDeletedTopics(cluster: ClusterShape): Promise<boolean> {
  // An empty topic list asks for every topic of the cluster.
  const all = await cluster.brokerPool.withBroker(({ broker }) => broker.metadata([]));
  if (!all) return false;
  const existing = new Set(all.topicMetadata.map((t) => t.topic));
  const gone = [...cluster.targetTopics].filter((t) => !existing.has(t));
  for (const topic of gone) cluster.targetTopics.delete(topic);
  return gone.length > 0;
}

const Cluster = require('kafkajs/src/cluster/index.js') as { prototype: ClusterShape };
for (const method of ['refreshMetadata', 'refreshMetadataIfNecessary'] as const) {
  const original = Cluster?.prototype?.[method];
  if (typeof original !== 'function') continue;
  Cluster.prototype[method] = async function (this: ClusterShape) {
    try {
      return await original.call(this);
    } catch (error) {
      if ((error as { type?: string }).type !== 'UNKNOWN_TOPIC_OR_PARTITION') throw error;
      if (!(await forgetDeletedTopics(this))) throw error;
      return await original.call(this);
    }
  };
}
