import { pino } from "pino";

export type Logger = pino.Logger;

/**
 * Structured JSON lines on stdout. Keys and bodies are never logged; `redact`
 * guards the headers anyway. Lines are written off the event loop, those
 * logged while a write is under way together in the next: a line per request
 * costs no write of its own under load, and pino writes what is left before
 * the process exits.
 */
export function createLogger(level: string): Logger {
  return pino(
    {
      level,
      base: undefined,
      redact: { paths: ['req.headers["x-api-key"]', "apiKey", "key"], censor: "[redacted]" },
    },
    pino.destination({ dest: 1, sync: false }),
  );
}
