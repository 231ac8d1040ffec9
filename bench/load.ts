import { request as httpRequest } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import autocannon from "autocannon";
import { cpuBetween, type DatabaseWatch } from "./database-watch.js";
import { resetPeak, settle, statusKb, treeCpuMs } from "./proc.js";
import type { RequestPlan } from "./scenarios.js";

export interface LoadOptions {
  seconds: number;
  connections: number;
  /** Waits for the database to finish what a measurement left behind, and reads its CPU. */
  database?: DatabaseWatch;
}

export interface Measurement {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
  /** Server CPU (user + system, a cluster's workers included) per completed request: less sensitive to a busy machine than req/s. */
  serverCpuMsPerRequest: number | null;
  /** CPU of the PostgreSQL backends of the scratch database per completed request. */
  databaseCpuMsPerRequest: number | null;
  /** The server's peak resident set during this measurement, in MB; null where it cannot be told apart. */
  peakRssMb: number | null;
}

/** Numbers the n-th request of every plan of the run, so written values never repeat. */
let requestNumber = 0;

/**
 * Drives one server with autocannon from this process for `seconds`, then
 * waits until the server has finished what the closed connections left it.
 */
export async function measure(
  target: { port: number; pid: number },
  plan: RequestPlan,
  options: LoadOptions,
): Promise<Measurement> {
  await plan.refresh?.(target.port);
  const databaseBefore = await options.database?.backendCpu();
  const cpuBefore = treeCpuMs(target.pid);
  const peakReset = resetPeak(target.pid);
  const result = await autocannon({
    url: `http://127.0.0.1:${target.port}`,
    connections: plan.connections ?? options.connections,
    duration: options.seconds,
    timeout: 30,
    requests: [
      {
        method: plan.method,
        headers: plan.headers,
        setupRequest: (request) => {
          const next = plan.build(requestNumber++);
          return { ...request, path: next.path, body: next.body };
        },
      },
    ],
  });
  const cpuDuring = treeCpuMs(target.pid) - cpuBefore;
  const peakKb = peakReset ? statusKb(target.pid, "VmHWM") : null;
  const databaseAfter = await options.database?.backendCpu();
  await settle(target.pid);
  await options.database?.wait();
  const notModified = plan.notModifiedCounts ? result["3xx"] : 0;
  const ok = result["2xx"] + notModified;
  const databaseCpu = databaseBefore && databaseAfter ? cpuBetween(databaseBefore, databaseAfter) : null;
  return {
    requestsPerSecond: ok / result.duration,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: ok,
    non2xx: result.non2xx - notModified,
    errors: result.errors,
    serverCpuMsPerRequest: ok > 0 ? cpuDuring / ok : null,
    databaseCpuMsPerRequest: ok > 0 && databaseCpu !== null ? databaseCpu / ok : null,
    peakRssMb: peakKb === null ? null : peakKb / 1024,
  };
}

/**
 * One request outside any measurement (sanity checks, canned floor responses),
 * over node:http so that the bytes sent (`wireBody`) are seen as they are;
 * `body` is them decoded.
 */
export async function sendOnce(
  port: number,
  plan: RequestPlan,
  /** Which of the plan's requests; the next of the run's numbering when unset. */
  n: number = requestNumber++,
): Promise<{
  status: number;
  contentType: string;
  contentEncoding: string | null;
  body: Buffer;
  wireBody: Buffer;
  path: string;
}> {
  const next = plan.build(n);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: "127.0.0.1", port, path: next.path, method: plan.method, headers: plan.headers, agent: false },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("error", reject);
        incoming.on("end", () => {
          const wireBody = Buffer.concat(chunks);
          const contentEncoding = incoming.headers["content-encoding"] ?? null;
          const body =
            contentEncoding === "br"
              ? brotliDecompressSync(wireBody)
              : contentEncoding === "gzip"
                ? gunzipSync(wireBody)
                : wireBody;
          resolve({
            status: incoming.statusCode ?? 0,
            contentType: incoming.headers["content-type"] ?? "application/json",
            contentEncoding,
            body,
            wireBody,
            path: next.path,
          });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(next.body);
  });
}
