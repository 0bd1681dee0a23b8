import pino, { type Logger } from 'pino';

/**
 * The logger of the start and the stop (server/index.ts): writes each line before it returns.
 * pino's default stream writes when the event loop is next free, and a migration that rewrites
 * a big table holds the loop for minutes: its progress lines would all appear at its end.
 * Requests log through Fastify's own logger; this one writes a few lines per start.
 */
export function startupLog(level: string, fd = 1): Logger {
  return pino({ level }, pino.destination({ fd, sync: true }));
}
