import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import os from "node:os";
import pg from "pg";

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  postgres: string;
  /** 1, 5 and 15 minute load averages when the run started: how busy the machine already was. */
  loadAverageAtStart: number[];
  git: { commit: string; dirty: boolean } | null;
}

export async function describeMachine(databaseUrl: string, root: string): Promise<Machine> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let postgres: string;
  try {
    postgres = (await client.query<{ version: string }>("SELECT version()")).rows[0]?.version ?? "unknown";
  } finally {
    await client.end();
  }
  return {
    cpuModel: cpuModel(),
    cores: os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os.type()} ${os.release()}`,
    node: process.version,
    postgres,
    loadAverageAtStart: os.loadavg().map((value) => Math.round(value * 100) / 100),
    git: gitState(root),
  };
}

function cpuModel(): string {
  try {
    const match = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"));
    if (match?.[1]) return match[1].trim();
  } catch {
    // not Linux
  }
  return os.cpus()[0]?.model ?? "unknown";
}

export function gitState(root: string): { commit: string; dirty: boolean } | null {
  try {
    const commit = execFileSync("git", ["rev-parse", "HEAD"], { cwd: root, encoding: "utf8" }).trim();
    const status = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: root,
      encoding: "utf8",
    });
    return { commit, dirty: status.trim() !== "" };
  } catch {
    return null;
  }
}
