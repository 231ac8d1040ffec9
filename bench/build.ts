import { spawnSync } from "node:child_process";
import path from "node:path";

function run(command: string, args: string[], cwd: string): void {
  const result = spawnSync(command, args, { cwd, stdio: "inherit" });
  if (result.status !== 0) {
    throw new Error(`'${command} ${args.join(" ")}' in ${cwd} failed with exit code ${result.status}`);
  }
}

/**
 * The gateway as `npm start` runs it (npm run build → dist/src), then the
 * peers into dist/bench with the same compiler settings.
 */
export function buildAll(root: string, candidateRoot: string | null): void {
  run("npm", ["run", "build", "--silent"], root);
  run(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "bench"], root);
  if (candidateRoot) run("npm", ["run", "build", "--silent"], candidateRoot);
}
