// Prometheus metrics of this process, one registry, exported at /metrics by every gateway.
import { Registry, Counter, Histogram, Gauge, collectDefaultMetrics } from 'prom-client';

export const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: 'labld_' });

export const httpRequests = new Histogram({
  name: 'labld_http_request_seconds',
  help: 'HTTP request latency by service, method, route and status',
  labelNames: ['service', 'method', 'route', 'status'] as const,
  registers: [registry],
});

export const busHandled = new Histogram({
  name: 'labld_bus_handle_seconds',
  help: 'time a consumer took to handle one message, by topic, group and outcome',
  labelNames: ['topic', 'group', 'outcome'] as const,
  registers: [registry],
});

export const busDeadLettered = new Counter({
  name: 'labld_bus_dead_lettered_total',
  help: 'messages sent to a dead-letter topic',
  labelNames: ['topic', 'group'] as const,
  registers: [registry],
});

export const busLateReplies = new Counter({
  name: 'labld_bus_late_replies_total',
  help: 'replies that arrived after their request had timed out (dropped)',
  registers: [registry],
});

export const busLag = new Gauge({
  name: 'labld_bus_consumer_lag',
  help: 'messages not yet committed, by topic, group and partition',
  labelNames: ['topic', 'group', 'partition'] as const,
  registers: [registry],
});

/** The embedded bus's records held in memory (lib/bus/embedded/partition-log.ts), by partition. */
export const busHeldBytes = new Gauge({
  name: 'labld_bus_held_bytes',
  help: "bytes of the embedded bus's records held in memory (values plus a rough overhead each), by topic and partition",
  labelNames: ['topic', 'partition'] as const,
  registers: [registry],
});

export const workerQueue = new Gauge({
  name: 'labld_worker_queue',
  help: 'requests waiting for an operation worker',
  registers: [registry],
});

export const workerWait = new Histogram({
  name: 'labld_worker_wait_seconds',
  help: 'time a request waited for an operation worker, by consumer group',
  labelNames: ['group'] as const,
  buckets: [0.001, 0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const workerStopped = new Counter({
  name: 'labld_worker_stopped_total',
  help: 'operation workers terminated or lost while running a request, by reason (deadline, memory, abandoned, crashed)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const rateLimited = new Counter({
  name: 'labld_rate_limited_total',
  help: 'requests refused with 429 by the per-caller rate limit (LABLD_RATE_LIMIT)',
  registers: [registry],
});
