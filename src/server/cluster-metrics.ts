import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import type { ClusterMetrics } from "../http/metrics.js";

// With WEB_CONCURRENCY workers, the worker a scrape of GET /metrics reaches
// asks the primary, which collects every worker's metrics through
// prom-client's AggregatorRegistry and answers with their sum: one scrape, the
// whole service, under the names one process uses.

const COLLECT = "buyer-api:cluster-metrics";
const COLLECTED = "buyer-api:cluster-metrics-collected";
/** prom-client gives up on a worker that has not answered in 5 s; this waits a little longer for the primary. */
const COLLECT_TIMEOUT_MS = 6_000;

interface CollectRequest {
  type: typeof COLLECT;
  id: number;
}

type CollectResult = { type: typeof COLLECTED; id: number } & ({ metrics: string } | { error: string });

function isMessage<T extends { type: string }>(message: unknown, type: T["type"]): message is T {
  return typeof message === "object" && message !== null && (message as { type?: unknown }).type === type;
}

/** In the primary: answers workers' requests for the cluster's metrics. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on("message", (worker: Worker, message: unknown) => {
    if (!isMessage<CollectRequest>(message, COLLECT)) return;
    const reply = (result: CollectResult) => {
      if (worker.isConnected()) worker.send(result);
    };
    aggregator.clusterMetrics().then(
      (metrics) => reply({ type: COLLECTED, id: message.id, metrics }),
      (error: unknown) =>
        reply({
          type: COLLECTED,
          id: message.id,
          error: error instanceof Error ? error.message : String(error),
        }),
    );
  });
}

/** In a worker: shares its metrics with the primary and asks it for everyone's. */
export function workerClusterMetrics(): ClusterMetrics {
  const waiting = new Map<number, { resolve(metrics: string): void; reject(error: Error): void }>();
  let nextId = 0;
  process.on("message", (message: unknown) => {
    if (!isMessage<CollectResult>(message, COLLECTED)) return;
    const pending = waiting.get(message.id);
    waiting.delete(message.id);
    if ("metrics" in message) pending?.resolve(message.metrics);
    else pending?.reject(new Error(`collecting the cluster's metrics failed: ${message.error}`));
  });
  return {
    share(registry) {
      AggregatorRegistry.setRegistries([registry]);
      // Constructing one in a worker is what makes prom-client answer the primary's requests.
      new AggregatorRegistry();
    },
    collect() {
      const id = nextId++;
      return new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(id);
          reject(new Error("collecting the cluster's metrics timed out"));
        }, COLLECT_TIMEOUT_MS);
        waiting.set(id, {
          resolve: (metrics) => {
            clearTimeout(timer);
            resolve(metrics);
          },
          reject: (error) => {
            clearTimeout(timer);
            reject(error);
          },
        });
        const request: CollectRequest = { type: COLLECT, id };
        process.send?.(request);
      });
    },
  };
}
