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
 * peers into dist/bench with the same compiler settings (PostGraphile's
 * peer in a compilation of its own: see bench/peers/postgraphile-peer.ts).
 */
export function buildAll(root: string, candidateRoot: string | null): void {
  run("npm", ["run", "build", "--silent"], root);
  const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
  run(process.execPath, [tsc, "-p", "bench"], root);
  run(process.execPath, [tsc, "-p", "bench/tsconfig.postgraphile.json"], root);
  if (candidateRoot) run("npm", ["run", "build", "--silent"], candidateRoot);
}
