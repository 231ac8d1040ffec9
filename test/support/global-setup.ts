// Runs once in the runner's own process, before any test file.
import { spawnSync } from "node:child_process";
import { projectRoot } from "../../src/project-root.js";
import { saveSnapshots } from "./pglite-snapshot.js";
import { onPostgres } from "./test-database.js";

/** Compiles dist/ when a source changed: the tests' child processes run it, as `npm start` does. */
function buildWhenChanged(): void {
  const build = spawnSync(process.execPath, ["scripts/build-when-changed.js"], {
    cwd: projectRoot(),
    stdio: "inherit",
  });
  // A type error still emits JavaScript; the typecheck, not the tests, reports it.
  if (build.error) throw build.error;
}

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  buildWhenChanged();
  return onPostgres ? undefined : saveSnapshots();
}
