import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Node resolves `graphql` to its CommonJS entry for our dependencies; Vite
    // would give our own files the .mjs build, and graphql refuses two copies.
    alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Saves a migrated PGlite data folder that test databases start from.
    globalSetup: ["test/support/global-setup.ts"],
    // One database per test file; opening PGlite takes seconds the first time.
    hookTimeout: 60_000,
    testTimeout: 30_000,
    pool: "forks",
    env: { NODE_ENV: "test" },
  },
});
