import { mkdirSync } from "node:fs";
import path from "node:path";
import { type ServerProcess, startServer } from "./processes.js";
import type { ProcessId } from "./scenarios.js";

export interface ServerSettings {
  root: string;
  candidateRoot: string | null;
  /** Node.js binary for the candidate; null: the one running the bench. */
  candidateNode: string | null;
  databaseUrl: string;
  appBaseUrl: string;
  logDir: string;
  /** Where --cpu-prof writes, per process; null when not profiling. */
  profileDir: string | null;
  /** False with --no-events: no webhook worker in the gateways. */
  events: boolean;
  /** For the floor: the JSON file of canned responses. */
  floorResponses?: string;
}

/** Production mode as deployed: graphql-js skips its development checks only with NODE_ENV=production, which needs a webhook secret key. */
const PRODUCTION = { NODE_ENV: "production", WEBHOOK_SECRET_KEY: Buffer.alloc(32, 7).toString("base64") };

export function profileDirOf(settings: ServerSettings, id: ProcessId): string | null {
  return settings.profileDir ? path.join(settings.profileDir, id) : null;
}

/** Starts one server process of the benchmark; the gateway is the real service, as `npm start` runs it. */
export async function startProcess(
  id: ProcessId,
  settings: ServerSettings,
  /** Over everything else: tracing's variables, or a setting a phase measures. */
  extraEnv: Record<string, string> = {},
): Promise<ServerProcess> {
  const logFile = path.join(settings.logDir, `${id}.log`);
  if (id === "gateway-traced") return startTracedGateway(settings);
  if (id === "gateway" || id === "gateway-uncached" || id === "gateway-executed" || id === "candidate") {
    const root = id === "candidate" ? settings.candidateRoot : settings.root;
    if (!root) throw new Error("the candidate needs --candidate <dir>");
    const profileDir = profileDirOf(settings, id);
    if (profileDir) mkdirSync(profileDir, { recursive: true });
    return startServer({
      name: id,
      node: id === "candidate" ? (settings.candidateNode ?? undefined) : undefined,
      cwd: root,
      args: [...(profileDir ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : []), "dist/src/server.js"],
      env: {
        ...PRODUCTION,
        DATABASE_URL: settings.databaseUrl,
        HOST: "127.0.0.1",
        APP_BASE_URL: settings.appBaseUrl,
        // Every request still pays for the counter; none is ever refused.
        RATE_LIMIT_PER_MINUTE: "1000000000",
        // A GraphQL page of 100 orders counts as expensive, and one key may run only a few of those
        // at once: the 50 connections, all on one key, would be refused 429 beyond them.
        MAX_CONCURRENT_EXPENSIVE_PER_KEY: "1000000",
        MAX_SENDING_BYTES_PER_KEY: String(2 ** 40),
        LOG_LEVEL: "info",
        WEB_CONCURRENCY: "1",
        MIGRATE_ON_START: "false",
        // Without the response cache every read executes; the candidate and the executing gateway run so too.
        ...(id === "gateway" ? {} : { RESPONSE_CACHE_MAX_BYTES: "0" }),
        ...(id === "gateway-executed" ? { GRAPHQL_PLANNED_READS: "false" } : {}),
        ...(settings.events ? {} : { WEBHOOK_WORKER_ENABLED: "false" }),
        ...extraEnv,
      },
      logFile,
    });
  }
  return startServer({
    name: id,
    cwd: settings.root,
    // A peer that goes astray must fail on its own, not take the shared machine's memory.
    args: ["--max-old-space-size=2048", "dist/bench/peers/serve.js", id],
    env: {
      ...PRODUCTION,
      DATABASE_URL: settings.databaseUrl,
      APP_BASE_URL: settings.appBaseUrl,
      FLOOR_RESPONSES: settings.floorResponses ?? "",
    },
    logFile,
  });
}

/**
 * The gateway with tracing on as an operator turns it on (OTEL_* variables),
 * every request sampled, exporting to an OTLP/HTTP sink in its own process
 * that accepts and discards, so the export's cost lands on the gateway alone.
 */
async function startTracedGateway(settings: ServerSettings): Promise<ServerProcess> {
  const sink = await startServer({
    name: "otlp-sink",
    cwd: settings.root,
    args: ["dist/bench/peers/serve.js", "otlp-sink"],
    env: PRODUCTION,
    logFile: path.join(settings.logDir, "otlp-sink.log"),
  });
  const logDir = path.join(settings.logDir, "traced");
  mkdirSync(logDir, { recursive: true });
  const gateway = await startProcess(
    "gateway",
    { ...settings, logDir },
    {
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${sink.port}`,
      OTEL_SERVICE_NAME: "buyer-public-api-bench",
      OTEL_TRACES_SAMPLER: "always_on",
    },
  );
  const stopGateway = gateway.stop.bind(gateway);
  gateway.name = "gateway-traced";
  gateway.stop = async () => {
    await stopGateway();
    await sink.stop();
  };
  return gateway;
}
