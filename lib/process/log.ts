// Structured logging: one JSON line per event (pino). Child loggers carry the component and,
// where there is one, the correlation id.
import { pino, type Logger } from 'pino';
import { setting } from './config.ts';

export type { Logger };

export const log: Logger = pino({
  level: setting('LABLD_LOG_LEVEL'),
  base: { pid: process.pid },
  // Secrets never reach a log line, whatever a caller passes in.
  redact: { paths: ['*.authorization', '*.password', '*.token', 'headers.cookie'], censor: '[redacted]' },
});
