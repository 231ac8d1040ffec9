import { execFile } from "node:child_process";
import { projectRoot } from "../../src/project-root.js";
import { CLI_ENTRY } from "./compiled.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The real CLI in a child process, as an operator runs it, on the database at `databaseUrl`. */
export function runCli(databaseUrl: string, ...args: string[]): Promise<CliRun> {
  return runCliWith({}, databaseUrl, ...args);
}

/** `runCli` with further environment variables. */
export function runCliWith(
  env: Record<string, string>,
  databaseUrl: string,
  ...args: string[]
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI_ENTRY, ...args],
      {
        cwd: projectRoot(),
        env: { ...process.env, DATABASE_URL: databaseUrl, MIGRATE_ON_START: "true", DEBUG: "", ...env },
      },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr });
      },
    );
  });
}
