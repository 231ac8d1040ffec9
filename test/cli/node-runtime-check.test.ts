// The check `npm ci` runs after installing (package.json postinstall): an npm
// too old to link the pinned Node.js is named in one line, instead of a guess
// about how npm was run.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
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

/** npm's own check of `devEngines` (npm-install-checks), from the npm on this machine. */
function npmsDevEnginesCheck(): {
  checkDevEngines(wanted: unknown, current: unknown): { isError: boolean; message: string }[];
  currentEnv: { devEngines(versions: { nodeVersion: string; npmVersion: string }): unknown };
} | null {
  const root = spawnSync("npm", ["root", "-g"], { encoding: "utf8" }).stdout.trim();
  const checks = path.join(root, "npm", "node_modules", "npm-install-checks");
  return existsSync(checks) ? createRequire(import.meta.url)(checks) : null;
}

describe("the npm version, checked before npm reads the lock file", () => {
  const manifest = JSON.parse(readFileSync(path.join(projectRoot(), "package.json"), "utf8")) as {
    devEngines?: unknown;
  };
  const checks = npmsDevEnginesCheck();

  it.runIf(checks)("refuses npm 10 before npm ci reads package-lock.json, and takes npm 11", () => {
    const failures = (npmVersion: string) =>
      checks?.checkDevEngines(
        manifest.devEngines,
        checks.currentEnv.devEngines({ nodeVersion: "v20.20.2", npmVersion }),
      ) ?? [];
    const refused = failures("10.9.2");
    expect(refused.filter((failure) => failure.isError)).toHaveLength(1);
    expect(failures("11.0.0")).toEqual([]);
    // The machine's Node.js runs npm: devEngines asks nothing of it.
    expect(failures("11.19.1")).toEqual([]);
  });

  it("is told in the README without sending anyone to `npm install`", () => {
    const readme = readFileSync(path.join(projectRoot(), "README.md"), "utf8");
    const requirements = readme.slice(
      readme.indexOf("**Requirements:**"),
      readme.indexOf("PostgreSQL is optional"),
    );
    expect(requirements).toContain("npm install -g npm@11");
    expect(requirements).toContain("do not run `npm install`");
  });
});
