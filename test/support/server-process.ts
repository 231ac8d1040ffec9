import { type ChildProcess, spawn } from "node:child_process";
import { type Agent, get } from "node:http";
import { projectRoot } from "../../src/project-root.js";
import { SERVER_ENTRY } from "./compiled.js";

/** The WEBHOOK_SECRET_KEY of server processes started here. */
export const TEST_WEBHOOK_SECRET_KEY = Buffer.alloc(32, 5).toString("base64");

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  output(): string;
}

/** Runs the compiled server in its own process, the way `npm start` does, on a free port. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: projectRoot(),
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      NODE_ENV: "production",
      // Production needs a key for webhook signing secrets; any fixed one serves a test.
      WEBHOOK_SECRET_KEY: TEST_WEBHOOK_SECRET_KEY,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/[\w.]+:\d+)/.exec(output);
      if (match?.[1]) resolve(match[1].replace("localhost", "127.0.0.1"));
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${output}`)));
  });
  return { child, baseUrl, exited, output: () => output };
}

/** Ends a server process the way an orchestrator does, and waits for it. */
export async function stopServerProcess(server: ServerProcess | undefined): Promise<void> {
  server?.child.kill("SIGTERM");
  await server?.exited;
}

/**
 * A GET over node:http rather than fetch, so that a test chooses the
 * connections: a keep-alive `agent` holds them open, `false` opens one per request.
 */
export function httpGet(
  url: string,
  options: { agent?: Agent | false; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = get(url, { agent: options.agent ?? false, headers: options.headers }, (response) => {
      let body = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        body += chunk;
      });
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      response.on("error", reject);
    });
    // Whether the request went out on a kept-alive connection, or on a new one
    // that may have been refused (or reset) while it was being opened.
    request.on("error", (error: Error & { reusedSocket?: boolean }) => {
      error.reusedSocket = request.reusedSocket;
      reject(error);
    });
  });
}
