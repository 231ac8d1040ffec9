import { type DocumentNode, getOperationAST } from "graphql";
import type { Plugin } from "graphql-yoga";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { ReplicaStatus } from "../db/replicas.js";
import type { ConditionalGetCounters } from "./conditional-get.js";
import type { ExpensiveWork } from "./expensive-work.js";
import { type PlannedReadMetrics, plannedReadMetrics } from "./read-plan-metrics.js";

export interface Metrics extends PlannedReadMetrics {
  registry: Registry;
  /** Counts and times one request, labelled with the router's template for its path ("unmatched" for none). */
  observeRequest(route: string, method: string, status: number, seconds: number): void;
  /** Counts GraphQL operations by type and outcome. */
  graphqlPlugin: Plugin;
  /** Counts 304s and response cache hits and misses. */
  conditionalGets: ConditionalGetCounters;
  /** Reports the keys' expensive work and the bytes of answers being sent when metrics are collected. */
  watchExpensiveWork(work: Pick<ExpensiveWork, "running" | "waiting" | "sendingBytes" | "refused">): void;
  /** Counts a connection closed because its client read an answer too slowly. */
  countWriteTimeout(): void;
  /** Reports the response cache's size when metrics are collected. */
  watchResponseCacheBytes(read: () => number): void;
  /** Counts one webhook delivery attempt by its outcome, with its duration. */
  observeWebhookAttempt(outcome: "delivered" | "failed", seconds: number): void;
  /** Reports how many change log entries wait to be rendered into events when metrics are collected. */
  watchUnrenderedChanges(count: () => Promise<number>): void;
  /** Counts one committed transaction of the event materialiser: the entries it took and the events it wrote. */
  observeEventRendering(batch: { entries: number; events: number }): void;
  /** Reports the replicas' state and the reads each database server served when metrics are collected. */
  watchDatabaseReads(
    read: () => { replicas: readonly ReplicaStatus[]; served: ReadonlyMap<string, number> },
  ): void;
}

/** Prometheus metrics of this process: requests, latency, GraphQL operations and the runtime. */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  return {
    registry,
    ...requestMetrics(registry),
    ...graphqlMetrics(registry),
    ...readMetrics(registry),
    ...webhookMetrics(registry),
    ...plannedReadMetrics(registry),
    ...databaseReadMetrics(registry),
    ...sendingMetrics(registry),
  };
}

/** Memory by kind, each key's expensive work and the answers on their way (docs/reference/operations.md "Memory bounds"). */
function sendingMetrics(registry: Registry): Pick<Metrics, "watchExpensiveWork" | "countWriteTimeout"> {
  new Gauge({
    name: "process_memory_bytes",
    help: "Memory of the process by kind, from process.memoryUsage(): rss, heap_total, heap_used, external (buffers and other memory outside the heap the heap's objects hold), array_buffers (part of external)",
    labelNames: ["kind"],
    registers: [registry],
    collect() {
      const usage = process.memoryUsage();
      this.set({ kind: "rss" }, usage.rss);
      this.set({ kind: "heap_total" }, usage.heapTotal);
      this.set({ kind: "heap_used" }, usage.heapUsed);
      this.set({ kind: "external" }, usage.external);
      this.set({ kind: "array_buffers" }, usage.arrayBuffers);
    },
  });
  let work: Pick<ExpensiveWork, "running" | "waiting" | "sendingBytes" | "refused"> = {
    running: 0,
    waiting: 0,
    sendingBytes: 0,
    refused: 0,
  };
  new Gauge({
    name: "expensive_work_running",
    help: "Expensive requests (costly GraphQL operations, large uncached REST pages) running or being sent, all keys together",
    registers: [registry],
    collect() {
      this.set(work.running);
    },
  });
  new Gauge({
    name: "expensive_work_waiting",
    help: "Expensive requests waiting for their turn, all keys together",
    registers: [registry],
    collect() {
      this.set(work.waiting);
    },
  });
  new Gauge({
    name: "http_sending_bytes",
    help: "Bytes of answers to API keys handed to the HTTP server and not yet sent",
    registers: [registry],
    collect() {
      this.set(work.sendingBytes);
    },
  });
  new Counter({
    name: "expensive_work_refused_total",
    help: "Requests refused with 429 because their key had as many expensive requests waiting for their turn, or as many bytes of answers on their way, as it may",
    registers: [registry],
    collect() {
      this.reset();
      this.inc(work.refused);
    },
  });
  const writeTimeouts = new Counter({
    name: "http_write_timeouts_total",
    help: "Connections closed because the client did not read an answer within RESPONSE_WRITE_TIMEOUT_MS",
    registers: [registry],
  });
  return {
    watchExpensiveWork(watched) {
      work = watched;
    },
    countWriteTimeout: () => writeTimeouts.inc(),
  };
}

/** Read replicas (docs/reference/operations.md "Read replicas"); no series without them. */
function databaseReadMetrics(registry: Registry): Pick<Metrics, "watchDatabaseReads"> {
  let read: Parameters<Metrics["watchDatabaseReads"]>[0] = () => ({ replicas: [], served: new Map() });
  const perReplica = (
    name: string,
    help: string,
    value: (replica: ReplicaStatus) => number | null,
    // Summed over a cluster's workers a lag would mean nothing: the largest is the one that matters.
    aggregator: "max" | "min",
  ) =>
    new Gauge({
      name,
      help,
      labelNames: ["replica"] as const,
      aggregator,
      registers: [registry],
      collect() {
        this.reset();
        for (const replica of read().replicas) {
          const measured = value(replica);
          if (measured !== null) this.set({ replica: replica.name }, measured);
        }
      },
    });
  perReplica(
    "database_replica_up",
    "1 while reads may use the replica",
    (r) => (r.state === "in_use" ? 1 : 0),
    "min",
  );
  perReplica(
    "database_replica_lag_seconds",
    "How long ago the primary last had nothing the replica has not replayed",
    (r) => r.lagSeconds,
    "max",
  );
  perReplica(
    "database_replica_lag_versions",
    "Buyer versions committed on the primary that the replica has not replayed",
    (r) => r.lagVersions,
    "max",
  );
  new Counter({
    name: "database_reads_total",
    help: "Reads served, by database server: primary, or a replica",
    labelNames: ["server"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [server, count] of read().served) this.inc({ server }, count);
    },
  });
  return {
    watchDatabaseReads(reader) {
      read = reader;
    },
  };
}

function requestMetrics(registry: Registry): Pick<Metrics, "observeRequest"> {
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by route, method and status",
    labelNames: ["route", "method", "status"] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: "http_request_duration_seconds",
    help: "Time to answer an HTTP request, by route and method",
    labelNames: ["route", "method"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  return {
    observeRequest(route, method, status, seconds) {
      requests.inc({ route, method, status: String(status) });
      duration.observe({ route, method }, seconds);
    },
  };
}

function graphqlMetrics(registry: Registry): Pick<Metrics, "graphqlPlugin"> {
  const operations = new Counter({
    name: "graphql_operations_total",
    // Operation names are the client's to choose, so they are not a label.
    help: "GraphQL operations executed through /graphql, by type and outcome",
    labelNames: ["type", "outcome"] as const,
    registers: [registry],
  });
  return {
    graphqlPlugin: {
      onExecute({ args }) {
        const type =
          getOperationAST(args.document as DocumentNode, args.operationName)?.operation ?? "unknown";
        return {
          onExecuteDone({ result }) {
            const failed = "errors" in result && Array.isArray(result.errors) && result.errors.length > 0;
            operations.inc({ type, outcome: failed ? "error" : "ok" });
          },
        };
      },
    },
  };
}

function readMetrics(registry: Registry): Pick<Metrics, "conditionalGets" | "watchResponseCacheBytes"> {
  const notModified = new Counter({
    name: "http_not_modified_total",
    help: "GET requests answered 304 Not Modified (If-None-Match named the current representation)",
    registers: [registry],
  });
  const cacheHits = new Counter({
    name: "http_response_cache_hits_total",
    help: "GET requests answered from the response cache",
    registers: [registry],
  });
  const cacheMisses = new Counter({
    name: "http_response_cache_misses_total",
    help: "GET requests the response cache could not answer, so executed",
    registers: [registry],
  });
  let readCacheBytes = () => 0;
  new Gauge({
    name: "http_response_cache_bytes",
    help: "Bytes the response cache holds, as counted against RESPONSE_CACHE_MAX_BYTES",
    registers: [registry],
    collect() {
      this.set(readCacheBytes());
    },
  });
  return {
    conditionalGets: {
      notModified: () => notModified.inc(),
      hit: () => cacheHits.inc(),
      miss: () => cacheMisses.inc(),
    },
    watchResponseCacheBytes(read) {
      readCacheBytes = read;
    },
  };
}

function webhookMetrics(
  registry: Registry,
): Pick<Metrics, "observeWebhookAttempt" | "watchUnrenderedChanges" | "observeEventRendering"> {
  const webhookAttempts = new Counter({
    name: "webhook_delivery_attempts_total",
    help: "Webhook delivery attempts by this process: delivered (2xx in time) or failed (retried later)",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const webhookDuration = new Histogram({
    name: "webhook_delivery_duration_seconds",
    help: "Time from sending a webhook to the receiver's answer (or the timeout)",
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const eventsRendered = new Counter({
    name: "webhook_events_rendered_total",
    help: "Events this process rendered from the change log",
    registers: [registry],
  });
  const renderBatches = new Histogram({
    name: "webhook_render_batch_entries",
    help: "Change log entries per event-rendering transaction (each commits before the next starts)",
    buckets: [1, 10, 25, 50, 100, 200, 500, 1000],
    registers: [registry],
  });
  let countUnrendered: () => Promise<number> = async () => 0;
  new Gauge({
    name: "webhook_changes_unrendered",
    help: "Change log entries not yet rendered into events, in the whole database",
    // Every process counts the same table: a cluster's scrape shows the count, not a sum of copies.
    aggregator: "max",
    registers: [registry],
    async collect() {
      this.set(await countUnrendered());
    },
  });
  return {
    observeWebhookAttempt(outcome, seconds) {
      webhookAttempts.inc({ outcome });
      webhookDuration.observe(seconds);
    },
    watchUnrenderedChanges(count) {
      countUnrendered = count;
    },
    observeEventRendering({ entries, events }) {
      eventsRendered.inc(events);
      renderBatches.observe(entries);
    },
  };
}

/**
 * How one worker of several answers GET /metrics for all of them: it offers
 * its registry to the collection and returns every worker's metrics summed
 * (src/server/cluster-metrics.ts).
 */
export interface ClusterMetrics {
  share(registry: Registry): void;
  /** Every worker's metrics, summed, in the registry's text format. */
  collect(): Promise<string>;
}
