#!/usr/bin/env node
// The CLI is compiled to dist/ by `npm run build`; this shim only loads it, on
// the Node.js that `npm ci` pinned (node_modules/.bin/node). `npx buyer-api`
// finds that runtime first on PATH; run another way (./bin/buyer-api.js from a
// shell whose `node` is the system's), the shim starts itself again on it.
import { spawnSync } from "node:child_process";
import { existsSync, realpathSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const self = fileURLToPath(import.meta.url);
const pinnedNode = path.resolve(path.dirname(self), "..", "node_modules", ".bin", "node");

if (existsSync(pinnedNode) && realpathSync(pinnedNode) !== realpathSync(process.execPath)) {
  const child = spawnSync(pinnedNode, [...process.execArgv, self, ...process.argv.slice(2)], {
    stdio: "inherit",
  });
  if (child.error) {
    console.error(`buyer-api: cannot start ${pinnedNode}: ${child.error.message}`);
    process.exitCode = 1;
  } else {
    process.exitCode = child.status ?? 1;
  }
} else {
  try {
    await import("../dist/src/cli/main.js");
  } catch (error) {
    if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/src/cli/main.js")) {
      console.error("buyer-api is not built yet: run `npm run build` first");
      process.exitCode = 1;
    } else {
      throw error;
    }
  }
}
