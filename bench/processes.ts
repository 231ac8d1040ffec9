import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { peakSinceStartKb } from "./proc.js";

export interface ServerProcess {
  name: string;
  pid: number;
  port: number;
  logFile: string;
  /** Peak resident set (VmHWM) when last recorded: by `recordPeak()`, else just before stopping. */
  peakRssKb: number | null;
  recordPeak(): void;
  stop(): Promise<void>;
}

export interface StartOptions {
  name: string;
  /** Node.js binary; the bench's own when unset. */
  node?: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  logFile: string;
}

/** A port nobody listens on right now, from the kernel. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts `node <args>` with PORT set and waits until GET /healthz answers 200.
 * Output goes to a log file, not through the runner: the runner's CPU is for
 * autocannon.
 */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  const port = await freePort();
  const log = openSync(options.logFile, "w");
  const child = spawn(options.node ?? process.execPath, options.args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env, PORT: String(port) },
    stdio: ["ignore", log, log],
  });
  closeSync(log);
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name} did not start`);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let running = true;
  void exited.then(() => {
    running = false;
  });

  const deadline = Date.now() + 90_000;
  for (;;) {
    if (!running) throw new Error(`${options.name} exited while starting:\n${tail(options.logFile)}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`${options.name} did not become healthy:\n${tail(options.logFile)}`);
    }
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`);
      await response.arrayBuffer();
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  const server: ServerProcess = {
    name: options.name,
    pid,
    port,
    logFile: options.logFile,
    peakRssKb: null,
    recordPeak() {
      if (running) server.peakRssKb = peakSinceStartKb(pid);
    },
    async stop() {
      if (!running) return;
      if (server.peakRssKb === null) server.recordPeak();
      await stopChild(child, exited);
    },
  };
  return server;
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  child.kill("SIGTERM");
  // The gateway drains for up to 10 s; a CPU profile is written on the way out.
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  await exited;
  clearTimeout(timer);
}

export function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}
