import { pino } from "pino";

export type Logger = pino.Logger;

/** Structured JSON lines on stdout. Keys and bodies are never logged; `redact` guards the headers anyway. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    base: undefined,
    redact: { paths: ['req.headers["x-api-key"]', "apiKey", "key"], censor: "[redacted]" },
  });
}
