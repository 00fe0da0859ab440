// News that the outbox holds something new, for the relays of this process (its main thread
// and its worker threads, where catalogue actions run), so that they publish it at once rather
// than at their next look. Only a hint: a relay still looks by itself every so often, and one in
// another process hears nothing from here.
import { BroadcastChannel } from 'node:worker_threads';

const CHANNEL = 'labld-outbox-written';

const listeners = new Set<() => void>();
let channel: BroadcastChannel | undefined;

function opened(): BroadcastChannel {
  if (!channel) {
    channel = new BroadcastChannel(CHANNEL);
    // Neither a listener nor a sender keeps the process alive.
    channel.unref();
    channel.onmessage = () => notify();
  }
  return channel;
}

function notify(): void {
  for (const listener of listeners) listener();
}

/** Calls `listener` whenever an event was committed to an outbox in this process; the unsubscribe. */
export function onOutboxWritten(listener: () => void): () => void {
  opened();
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** An event was committed to the outbox (a channel does not hear its own messages: this thread's listeners are called directly). */
export function outboxWritten(): void {
  notify();
  opened().postMessage(null);
}
