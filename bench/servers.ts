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
  /** For the floor: the JSON file of canned responses. */
  floorResponses?: string;
}

/** Production mode as deployed: graphql-js skips its development checks only with NODE_ENV=production. */
const PRODUCTION = { NODE_ENV: "production" };

export function profileDirOf(settings: ServerSettings, id: ProcessId): string | null {
  return settings.profileDir ? path.join(settings.profileDir, id) : null;
}

/** Starts one server process of the benchmark; the gateway is the real service, as `npm start` runs it. */
export async function startProcess(id: ProcessId, settings: ServerSettings): Promise<ServerProcess> {
  const logFile = path.join(settings.logDir, `${id}.log`);
  if (id === "gateway" || id === "gateway-uncached" || id === "candidate") {
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
        LOG_LEVEL: "info",
        WEB_CONCURRENCY: "1",
        MIGRATE_ON_START: "false",
        // The same gateway without its response cache: every read executes, as before the cache.
        ...(id === "gateway-uncached" ? { RESPONSE_CACHE_MAX_BYTES: "0" } : {}),
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
