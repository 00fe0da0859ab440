// Composition: one Koa app per process with the kit's middleware (observe → errors → health),
// then each gateway mounted at its base path. The same code serves the embedded server (all
// services plus the catalogue at `/`) and a single service (`labld serve annotator`), where
// the service also answers at `/` so that `{annotator_url}` may be `http://host:5001`.
import { createServer as createHttpServer, type Server } from 'node:http';
import path from 'node:path';
import Koa, { type Middleware } from 'koa';
import { byteSetting, intSetting, setting } from '../../lib/process/config.ts';
import { noteListening } from '../../lib/fetch/own-address.ts';
import { log, type Logger } from '../../lib/process/log.ts';
import { answerError, errorHandler } from './errors.ts';
import type { Gateway } from './gateway.ts';
import { healthRoutes, type ReadinessCheck } from './health.ts';
import { observe } from './observe.ts';
import { rateLimit, type RateLimitOptions } from './rate-limit.ts';
import { sweepUploads } from './upload.ts';

export interface AppOptions {
  gateways: readonly Gateway[];
  /** Single-service mode: also serve the gateway with this service name at `/`. */
  rootAlias?: string;
  /** Checks of /readyz (e.g. the bus is connected). */
  readiness?: readonly ReadinessCheck[];
  /**
   * Bytes; default LABLD_BODY_LIMIT (JSON bodies and form fields) and LABLD_UPLOAD_LIMIT (a file);
   * `bodyIdleMs` default LABLD_BODY_IDLE_TIMEOUT_MS (a body that stops arriving gets a 408).
   */
  limits?: { body?: number; upload?: number; bodyIdleMs?: number };
  /** Default LABLD_DATA; uploads go to `<dataDir>/uploads/<random>/`. */
  dataDir?: string;
  /** Default lib/log's logger. */
  logger?: Logger;
  /** Per-caller limit of every route but /healthz, /readyz and /metrics; none: no limit. */
  rateLimit?: RateLimitOptions;
}

export interface ServerOptions extends AppOptions {
  /** Default PORT; 0 picks a free port. */
  port?: number;
  /** Default HOST. */
  host?: string;
  /** Default LABLD_HEADERS_TIMEOUT_MS: a request whose headers are not complete by then gets a 408. */
  headersTimeoutMs?: number;
}

export interface RunningServer {
  app: Koa;
  server: Server;
  /** `http://host:port` as listening. */
  url: string;
  /** /readyz turns 503 at once; open requests get `graceMs` (default 10 s) to finish. */
  close(graceMs?: number): Promise<void>;
}

interface Mount {
  prefix: string;
  handle: Middleware;
}

const QUIET_ERRORS = new Set(['ECONNRESET', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/** Longest prefix wins, on whole segments, so `/` (the catalogue) never shadows `/annotator/…`. */
function dispatch(mounts: readonly Mount[]): Middleware {
  const ordered = [...mounts].sort((a, b) => b.prefix.length - a.prefix.length);
  return async (ctx, next) => {
    const mount = ordered.find(
      (m) => m.prefix === '' || ctx.path === m.prefix || ctx.path.startsWith(`${m.prefix}/`),
    );
    if (mount) return mount.handle(ctx, next);
    answerError(ctx, { status: 404, detail: 'Not Found' });
  };
}

export function createApp(options: AppOptions): Koa {
  const logger = options.logger ?? log;
  const limits = {
    body: options.limits?.body ?? byteSetting('LABLD_BODY_LIMIT'),
    upload: options.limits?.upload ?? byteSetting('LABLD_UPLOAD_LIMIT'),
    bodyIdleMs: options.limits?.bodyIdleMs ?? intSetting('LABLD_BODY_IDLE_TIMEOUT_MS'),
  };
  const uploadRoot = path.resolve(options.dataDir ?? setting('LABLD_DATA'), 'uploads');
  const mount = (gateway: Gateway, prefix: string): Mount => ({
    prefix,
    handle: gateway.middleware({ prefix, limits, uploadRoot }),
  });

  const mounts = options.gateways.map((g) => mount(g, g.basePath));
  if (options.rootAlias !== undefined) {
    const gateway = options.gateways.find((g) => g.service === options.rootAlias);
    if (!gateway) throw new Error(`rootAlias: no gateway named ${options.rootAlias}`);
    if (gateway.basePath !== '') mounts.push(mount(gateway, ''));
  }
  const prefixes = mounts.map((m) => m.prefix);
  const clash = prefixes.find((p, i) => prefixes.indexOf(p) !== i);
  if (clash !== undefined) throw new Error(`two gateways are mounted at ${JSON.stringify(clash || '/')}`);

  const readiness = options.readiness ?? [];
  const app = new Koa();
  // Errors Koa sees after the middleware (a download stream that broke off) are logged, not printed.
  app.on('error', (error: NodeJS.ErrnoException) => {
    if (QUIET_ERRORS.has(error.code ?? '')) logger.debug({ err: error }, 'connection closed while answering');
    else logger.error({ err: error }, 'error while sending a response');
  });
  app.use(observe(logger));
  app.use(errorHandler());
  app.use(healthRoutes(() => readiness));
  if (options.rateLimit) app.use(rateLimit(options.rateLimit));
  app.use(dispatch(mounts));
  return app;
}

export async function createServer(options: ServerOptions): Promise<RunningServer> {
  let draining = false;
  const app = createApp({
    ...options,
    readiness: [
      ...(options.readiness ?? []),
      {
        name: 'server',
        check: () => {
          if (draining) throw new Error('shutting down');
        },
      },
    ],
  });
  const logger = options.logger ?? log;
  const uploadRoot = path.resolve(options.dataDir ?? setting('LABLD_DATA'), 'uploads');
  const swept = await sweepUploads(uploadRoot);
  if (swept > 0) logger.info({ uploadRoot, swept }, 'removed empty upload directories');
  const headersTimeout = options.headersTimeoutMs ?? intSetting('LABLD_HEADERS_TIMEOUT_MS');
  const server = createHttpServer(
    {
      // Slow headers (slowloris) are cut by Node with a 408; a slow body by the kit's idle timer
      // (bodyIdleMs). No total time: a 1 GB upload on a slow but moving link takes what it takes.
      headersTimeout,
      requestTimeout: 0,
      // Node checks those deadlines on this interval (default 30 s, which would add up to 30 s).
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(headersTimeout / 4) || 1000)),
    },
    app.callback(),
  );
  const host = options.host ?? setting('HOST');
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? intSetting('PORT'), host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // The guarded fetch never connects here, whatever LABLD_FETCH_ALLOW allows.
  const forget = typeof address === 'object' && address ? noteListening(address.address, port) : () => {};
  server.once('close', forget);
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  logger.info({ url, services: options.gateways.map((g) => g.service) }, 'listening');

  return {
    app,
    server,
    url,
    close(graceMs = 10_000) {
      draining = true;
      return new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
    },
  };
}
