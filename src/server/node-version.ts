import { readFileSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "../project-root.js";

/**
 * Why this Node.js cannot run the server, or null when it can: the version
 * must satisfy package.json's `engines.node`, a `>=major.minor.patch`.
 */
export function unsupportedNode(version = process.versions.node): string | null {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot(), "package.json"), "utf8")) as {
    engines?: { node?: string };
  };
  const required = manifest.engines?.node ?? "";
  const minimum = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(required)?.slice(1).map(Number);
  const running = version.split(".").map(Number);
  if (!minimum) return null;
  for (let index = 0; index < 3; index += 1) {
    const [have = 0, need = 0] = [running[index], minimum[index]];
    if (have !== need) {
      if (have > need) return null;
      return `buyer-public-api needs Node.js ${required} (package.json engines); this is Node.js v${version} (${process.execPath}). npm scripts run the pinned one in node_modules/.bin.`;
    }
  }
  return null;
}
