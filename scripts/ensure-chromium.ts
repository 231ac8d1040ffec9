// Runs before `npm test`: the browser tests drive Debian's Chromium, which a
// fresh machine does not have. Install it from Debian's packages when we may
// (root, or password-less sudo); otherwise stop with one line saying what to do.
// Browsers are never downloaded from anywhere else.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { CHROMIUM_PATH } from "../tools/browser.js";

function run(command: string, args: readonly string[]): boolean {
  const result = spawnSync(command, args, {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
  return result.status === 0;
}

function canRun(command: string, args: readonly string[]): boolean {
  return spawnSync(command, args, { stdio: "ignore" }).status === 0;
}

function fail(line: string): never {
  console.error(`npm test: ${line}`);
  process.exit(1);
}

if (!existsSync(CHROMIUM_PATH)) {
  if (!canRun("apt-get", ["--version"])) {
    fail(
      `the browser tests need Chromium at ${CHROMIUM_PATH} and this machine has no apt-get; install Chromium there (or set CHROMIUM_PATH) and run npm test again`,
    );
  }
  const asRoot = process.getuid?.() === 0;
  const prefix: string[] = asRoot ? [] : ["sudo", "-n"];
  if (!asRoot && !canRun("sudo", ["-n", "true"])) {
    fail(
      `the browser tests need Chromium at ${CHROMIUM_PATH}: run 'sudo apt-get install -y --no-install-recommends chromium', then npm test again`,
    );
  }
  console.log("npm test: installing Debian's chromium for the browser tests (once; about a minute)…");
  const [command = "apt-get", ...rest] = [...prefix, "apt-get"];
  const installed =
    run(command, [...rest, "update", "-q"]) &&
    run(command, [...rest, "install", "-y", "-q", "--no-install-recommends", "chromium"]);
  if (!installed || !existsSync(CHROMIUM_PATH)) {
    fail(
      `installing Debian's chromium failed (see apt-get's message above); install it by hand ('apt-get install chromium') and run npm test again`,
    );
  }
  console.log(`npm test: chromium installed at ${CHROMIUM_PATH}`);
}
