// What a variable's text may be, as zod schemas from the text to the value.
// Each message completes "NAME: …", the one line a bad value stops the start with.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { DatabaseUrlError, parseDatabaseUrl } from "../db/database-url.js";

export const booleanFlag = z
  .enum(["true", "false", "1", "0", "yes", "no"], { message: "must be true or false" })
  .transform((value) => value === "true" || value === "1" || value === "yes");

/** A whole number from `min` to `max`, or from `min` up when there is no `max`. */
export function wholeNumber(
  min: number,
  options: { max?: number; unit?: string; range?: string } = {},
): z.ZodType<number> {
  const range =
    options.range ??
    (options.max === undefined ? `must be at least ${min}` : `must be ${min} to ${options.max}`);
  const number = z.coerce
    .number({ message: `must be a ${options.unit ?? "number"}` })
    .int("must be a whole number")
    .min(min, range);
  return options.max === undefined ? number : number.max(options.max, range);
}

/** A count or size of at least 1: the usual limit. */
export const limit = wholeNumber(1);

export const nonEmpty = z.string().min(1, "must not be empty");

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const logLevel = z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(", ")}` });

const HTTP_URL_MESSAGE = "must be an absolute http(s) URL";

/** An http(s) URL, without the trailing slash, so that paths appended to it have one. */
export const httpUrl = z
  .url({ message: HTTP_URL_MESSAGE, protocol: /^https?$/ })
  .transform((url) => url.replace(/\/+$/, ""));

/** Scheme, host and port only. */
export const origin = z
  .url({ message: HTTP_URL_MESSAGE, protocol: /^https?$/ })
  .refine((url) => new URL(url).pathname === "/" && !new URL(url).search, {
    message: "must be an origin such as https://api.example.com, without a path",
  })
  .transform((url) => new URL(url).origin);

export const corsOrigins = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((item) => item.trim().replace(/\/+$/, ""))
      .filter((item) => item !== ""),
  )
  .refine((origins) => origins.every((item) => item === "*" || /^https?:\/\/[^/\s]+$/.test(item)), {
    message: "must be * or a comma-separated list of origins such as https://app.example.com",
  });

export const databaseTarget = z.string().transform((text, context) => {
  try {
    return parseDatabaseUrl(text);
  } catch (error) {
    if (!(error instanceof DatabaseUrlError)) throw error;
    context.addIssue({ code: "custom", message: error.message.replace(/^DATABASE_URL /, "") });
    return z.NEVER;
  }
});

/** Comma-separated postgres:// URLs (empty: none); a bad one is named by its place, never printed, as it may hold a password. */
export const postgresUrlList = z.string().transform((text, context) => {
  const items = text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
  for (const [index, item] of items.entries()) {
    let valid = false;
    try {
      valid = parseDatabaseUrl(item).kind === "postgres" && new URL(item).hostname !== "";
    } catch (error) {
      if (!(error instanceof DatabaseUrlError)) throw error;
    }
    if (!valid) {
      context.addIssue({
        code: "custom",
        message: `item ${index + 1} is not a postgres://user@host:5432/db URL`,
      });
      return z.NEVER;
    }
  }
  return items;
});

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const DURATION_UNITS: Record<string, number> = { ms: 1, s: SECOND, m: MINUTE, h: HOUR, d: DAY };

/** `250ms`, `5s`, `30m`, `2h`, `3d` → milliseconds; null when it is not one. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * (DURATION_UNITS[match[2] ?? ""] ?? 0);
}

/** A comma-separated list of durations; null when any item is not one. */
export function parseDurationList(text: string): number[] | null {
  const items = text.split(",").map(parseDuration);
  return items.every((item): item is number => item !== null) ? items : null;
}

/** Milliseconds, written with a unit. */
export const duration = z.string().transform((text, context) => {
  const value = parseDuration(text);
  if (value === null || value <= 0) {
    context.addIssue({ code: "custom", message: "must be a duration such as 500ms, 10s, 5m, 2h or 30d" });
    return z.NEVER;
  }
  return value;
});

export const durationList = z.string().transform((text, context) => {
  const value = parseDurationList(text);
  if (value === null || value.length === 0 || value.length > 50) {
    context.addIssue({
      code: "custom",
      message: "must be 1 to 50 comma-separated durations such as 5s,5m,30m,2h",
    });
    return z.NEVER;
  }
  return value;
});

/** A 256-bit key, written as 64 hex digits or as base64. */
function readSecretKey(text: string): Buffer | null {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, "hex") : Buffer.from(trimmed, "base64");
  return key.length === 32 ? key : null;
}

export const secretKey = z.string().transform((text, context) => {
  const key = readSecretKey(text);
  if (key) return key;
  context.addIssue({ code: "custom", message: "must be 32 bytes, as base64 or 64 hex digits" });
  return z.NEVER;
});

/** Comma-separated keys; empty items are skipped. */
export const secretKeyList = z.string().transform((text, context) => {
  const keys = text
    .split(",")
    .filter((item) => item.trim() !== "")
    .map(readSecretKey);
  if (keys.every((key): key is Buffer => key !== null)) return keys;
  context.addIssue({ code: "custom", message: "each key must be 32 bytes, as base64 or 64 hex digits" });
  return z.NEVER;
});

/**
 * The path of a persisted documents manifest → its documents: a JSON object
 * of sha256 hash (hex, or `sha256:<hex>`) → document, as graphql-codegen's
 * client preset writes it. Every hash is checked against its document, so a
 * stale manifest stops the process at start instead of running the wrong
 * document.
 */
export const persistedDocumentsManifest = z
  .string()
  .transform((path, context): ReadonlyMap<string, string> => {
    const manifest = readManifest(path);
    if (typeof manifest !== "string") return manifest;
    context.addIssue({ code: "custom", message: `${path} ${manifest}` });
    return z.NEVER;
  });

/** The manifest's documents by hash, or why the file is not a manifest. */
function readManifest(path: string): Map<string, string> | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return error instanceof SyntaxError ? "is not JSON" : "cannot be read";
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return "must be a JSON object of sha256 hash → document";
  }
  const manifest = new Map<string, string>();
  for (const [id, document] of Object.entries(parsed)) {
    const hash = id.startsWith("sha256:") ? id.slice("sha256:".length) : id;
    if (typeof document !== "string") return `has a non-string document under ${id}`;
    if (createHash("sha256").update(document).digest("hex") !== hash) {
      return `has a document whose sha256 is not its key ${id}`;
    }
    manifest.set(hash, document);
  }
  return manifest;
}
