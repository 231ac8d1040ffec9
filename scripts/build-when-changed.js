// `npm start`, `npm run demo` and `npm run cli` run the compiled JavaScript in
// dist/. This compiles it only when an input changed since the last good
// build (a newer file or folder under the inputs: an edit, a checkout, a new
// or deleted file, a regenerated Prisma client), so that a restart with
// unchanged sources does not wait for the compiler. Plain JavaScript, so that
// the check itself needs no compiler or loader.
//
// With --preflight (start and demo), the configuration and the port are
// checked first, before a build or the database, as src/server/preflight.ts says.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** What the build reads: tsconfig.build.json compiles src with these settings and dependencies. */
const INPUTS = ["src", "tsconfig.json", "tsconfig.build.json", "package.json", "package-lock.json"];
/** Holds when the last good build started; a file changed after that is compiled again. */
const STAMP = path.join(root, "dist", ".build-started");

function newestChange(file) {
  const stats = statSync(file);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let newest = stats.mtimeMs;
  for (const entry of readdirSync(file)) newest = Math.max(newest, newestChange(path.join(file, entry)));
  return newest;
}

function lastBuildStarted() {
  if (!existsSync(STAMP)) return null;
  const started = Number(readFileSync(STAMP, "utf8"));
  return Number.isFinite(started) ? started : null;
}

function isBuildCurrent() {
  const started = lastBuildStarted();
  if (started === null) return false;
  return INPUTS.every((input) => {
    const file = path.join(root, input);
    return !existsSync(file) || newestChange(file) < started;
  });
}

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: "inherit" });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const preflight = process.argv.includes("--preflight");
if (isBuildCurrent()) {
  if (preflight) {
    const { loadConfigOrExit, portOrExit } = await import("../dist/src/server/preflight.js");
    const config = loadConfigOrExit();
    if (config.port !== 0) await portOrExit({ port: config.port, host: config.host });
  }
} else {
  if (preflight) run(["--import", "tsx", "scripts/preflight.ts"]);
  const started = Date.now();
  run([path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.build.json"]);
  writeFileSync(STAMP, String(started));
}
