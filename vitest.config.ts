import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

/**
 * Test files that set process-wide state (the global OpenTelemetry tracer,
 * or what a module's loading leaves behind): each runs in a process of its own.
 */
const OWN_PROCESS = [
  "test/telemetry/**/*.test.ts",
  "test/webhooks/delivery-telemetry.test.ts",
  "test/webhooks/secrets-at-rest.test.ts",
];

/**
 * Tests of several processes or real PostgreSQL clusters: replicas, worker
 * clusters, processes killed mid-work, a PGlite folder shared by commands.
 * They take minutes, so `npm test` runs them only with TEST_PROCESSES=1;
 * CI (.ci/run) always sets it.
 */
const PROCESSES = [
  "test/replication/replica-reads.test.ts",
  "test/replication/replica-recipe.test.ts",
  "test/replication/replica-health.test.ts",
  "test/console/demo-database.test.ts",
  "test/console/demo-data-directory.test.ts",
  "test/hardening/cluster-metrics.test.ts",
  "test/hardening/cluster-turns.test.ts",
  "test/hardening/cluster-worker-death.test.ts",
  "test/hardening/processes.test.ts",
  "test/hardening/crash-retry.test.ts",
  "test/webhooks/crash.test.ts",
  "test/http/response-cache-socket.test.ts",
];
const runsProcesses = process.env.TEST_PROCESSES === "1";

export default defineConfig({
  resolve: {
    // Node resolves `graphql` to its CommonJS entry for our dependencies; Vite
    // would give our own files the .mjs build, and graphql refuses two copies.
    alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }],
  },
  test: {
    // Saves a migrated PGlite data folder that test databases start from.
    globalSetup: ["test/support/global-setup.ts"],
    // One database per test file; opening PGlite takes seconds the first time.
    hookTimeout: 60_000,
    testTimeout: 30_000,
    pool: "forks",
    // Many files spend most of their time waiting on child processes, sockets
    // and timers: two workers even on two cores (the default would be one).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    env: { NODE_ENV: "test" },
    projects: [
      { extends: true, test: { name: "own-process", include: OWN_PROCESS, isolate: true } },
      ...(runsProcesses
        ? [{ extends: true, test: { name: "processes", include: PROCESSES, isolate: false } }]
        : []),
      {
        extends: true,
        // Every other file opens its own app and database and leaves no global
        // state, so a worker runs one file after another without loading the
        // app's modules and PGlite's WebAssembly again for each.
        test: {
          name: "shared-process",
          include: ["test/**/*.test.ts"],
          exclude: [...OWN_PROCESS, ...PROCESSES],
          isolate: false,
        },
      },
    ],
  },
});
