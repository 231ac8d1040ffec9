// The check `npm ci` runs after installing (package.json postinstall): an npm
// too old to link the pinned Node.js is named in one line, instead of a guess
// about how npm was run.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { projectRoot } from "../../src/project-root.js";

function runCheck(userAgent: string): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [path.join(projectRoot(), "scripts", "check-node-runtime.js")], {
    cwd: projectRoot(),
    env: { ...process.env, npm_config_user_agent: userAgent },
    encoding: "utf8",
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe("the install's Node.js runtime check", () => {
  it("stops npm 10 with one line saying npm 11 is needed", () => {
    const run = runCheck("npm/10.9.2 node/v22.12.0 linux x64 workspaces/false");
    expect(run.status).toBe(1);
    const lines = run.stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/npm 10\.9\.2 .*npm 11 or later/);
    expect(lines[0]).not.toContain("--no-bin-links");
  });

  it("passes under npm 11 when the pinned runtime is installed", () => {
    const run = runCheck("npm/11.19.1 node/v20.19.0 linux x64 workspaces/false");
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^buyer-public-api: npm scripts run on Node\.js v\d+\.\d+\.\d+/);
  });
});
