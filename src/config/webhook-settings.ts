// Webhook endpoints and their deliveries: the webhooks' part of the
// configuration table (AppConfig.webhooks, docs/reference/webhooks.md). Descriptions are
// Markdown for docs/reference/operations.md's table.
import { createHash } from "node:crypto";
import { z } from "zod";
import { combine, fixed, optionalVariable, variable } from "./setting.js";
import { booleanFlag, duration, durationList, limit, secretKey, secretKeyList } from "./values.js";

/**
 * Used only when WEBHOOK_SECRET_KEY is unset outside production, so that tests
 * and the demo run without set-up. Known to everyone: never protects anything.
 */
export const DEVELOPMENT_WEBHOOK_SECRET_KEY = createHash("sha256")
  .update("buyer-api development webhook secret key: public, never for production")
  .digest();

/** Whether signing secrets are encrypted with the public development key. */
export function usesDevelopmentKey(webhooks: { secretKeys: readonly Buffer[] }): boolean {
  return webhooks.secretKeys[0]?.equals(DEVELOPMENT_WEBHOOK_SECRET_KEY) ?? false;
}

/** Each retry delay is moved by up to this share either way, so retries of many deliveries spread out. */
const RETRY_JITTER = 0.2;

/**
 * Change log entries rendered into events per transaction (docs/reference/webhooks.md, "Where events
 * come from"): enough that one statement per record type serves many events, few enough that a
 * transaction stays short.
 */
const RENDER_BATCH_SIZE = 200;

/** A batch's rendering transaction is rolled back after this, its entries left listed for the next look. */
const RENDER_TRANSACTION_TIMEOUT_MS = 60_000;

/** How long a batch's rendering waits for a pooled connection to start its transaction. */
const RENDER_TRANSACTION_WAIT_MS = 10_000;

export const WEBHOOK_SETTINGS = {
  /** Encrypt signing secrets at rest: the first key encrypts, every key decrypts (rotation). */
  secretKeys: combine(
    {
      current: optionalVariable({
        name: "WEBHOOK_SECRET_KEY",
        whenUnset: "development key",
        schema: secretKey,
        description:
          "32 random bytes (base64 or 64 hex digits) that encrypt signing secrets; required when `NODE_ENV=production`",
      }),
      previous: optionalVariable({
        name: "WEBHOOK_SECRET_KEY_PREVIOUS",
        whenUnset: "none",
        schema: secretKeyList,
        description: "earlier keys, comma-separated, still accepted for decryption",
      }),
      environment: optionalVariable({
        name: "NODE_ENV",
        whenUnset: "unset",
        schema: z.string(),
        description: "`production` refuses to start without `WEBHOOK_SECRET_KEY`",
      }),
    },
    ({ current, previous, environment }, refuse) => {
      if (current !== null) return [current, ...(previous ?? [])];
      if (environment === "production") {
        return refuse(
          "WEBHOOK_SECRET_KEY",
          "must be set in production (32 random bytes as base64: openssl rand -base64 32)",
        );
      }
      return [DEVELOPMENT_WEBHOOK_SECRET_KEY, ...(previous ?? [])];
    },
  ),
  allowHttp: variable({
    name: "WEBHOOK_ALLOW_HTTP",
    default: "false",
    schema: booleanFlag,
    description: "allow `http` endpoint URLs (tests, the demo)",
  }),
  allowPrivateNetworks: variable({
    name: "WEBHOOK_ALLOW_PRIVATE_NETWORKS",
    default: "false",
    schema: booleanFlag,
    description: "allow URLs that resolve to loopback, private, link-local and other non-public addresses",
  }),
  retryScheduleMs: variable({
    name: "WEBHOOK_RETRY_SCHEDULE",
    // About 3 days in all, growing roughly exponentially.
    default: "5s,5m,30m,2h,5h,10h,14h,20h,20h",
    schema: durationList,
    description: `delay before each retry (±${RETRY_JITTER * 100} % jitter); the last one is the last retry`,
  }),
  retryJitter: fixed(RETRY_JITTER),
  renderBatchSize: fixed(RENDER_BATCH_SIZE),
  renderTransactionTimeoutMs: fixed(RENDER_TRANSACTION_TIMEOUT_MS),
  renderTransactionWaitMs: fixed(RENDER_TRANSACTION_WAIT_MS),
  deliveryTimeoutMs: variable({
    name: "WEBHOOK_TIMEOUT",
    default: "10s",
    schema: duration,
    description: "a 2xx must come within this",
  }),
  leaseMs: variable({
    name: "WEBHOOK_LEASE",
    default: "2m",
    schema: duration,
    description: "a delivery claimed by a process that died is taken up again after this",
  }),
  disableFailingAfterMs: variable({
    name: "WEBHOOK_DISABLE_FAILING_AFTER",
    default: "5d",
    schema: duration,
    description: "a failing endpoint with no success for this long is disabled",
  }),
  eventRetentionMs: variable({
    name: "WEBHOOK_EVENT_RETENTION",
    default: "30d",
    schema: duration,
    description: "events and their deliveries are pruned after this",
  }),
  workerEnabled: variable({
    name: "WEBHOOK_WORKER_ENABLED",
    default: "true",
    schema: booleanFlag,
    description: "`false` keeps this process from rendering and delivering (another process must)",
  }),
  pollIntervalMs: variable({
    name: "WEBHOOK_POLL_INTERVAL",
    default: "1s",
    schema: duration,
    description: "how often an idle worker looks for due retries; new work wakes it at once (NOTIFY)",
  }),
  concurrency: variable({
    name: "WEBHOOK_CONCURRENCY",
    default: "20",
    schema: limit,
    description: "deliveries one process attempts at once",
  }),
  endpointConcurrency: variable({
    name: "WEBHOOK_ENDPOINT_CONCURRENCY",
    default: "5",
    schema: limit,
    description: "deliveries to one endpoint attempted at once, by all processes together",
  }),
  buyerConcurrency: variable({
    name: "WEBHOOK_BUYER_CONCURRENCY",
    default: "10",
    schema: limit,
    description:
      "deliveries to one buyer's endpoints attempted at once, by all processes together; below `WEBHOOK_CONCURRENCY`, so that one buyer's slow endpoints leave room for the others ([webhooks.md](webhooks.md#delivery-bounds-and-isolation))",
  }),
};
