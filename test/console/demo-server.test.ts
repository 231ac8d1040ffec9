// `buyer-api demo --serve` as a newcomer runs it: on the port it was given,
// the requests it prints work when pasted into a shell, and the status lines
// on the wire read like HTTP's (`HTTP/1.1 200 OK`).
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../src/project-root.js";
import { CLI_ENTRY } from "../support/compiled.js";
import { rawStatusLine } from "../support/raw-http.js";

const run = promisify(execFile);

describe("the demo server", { timeout: 180_000 }, () => {
  let child: ChildProcess;
  let exited: Promise<number | null>;
  let output = "";
  let port: number;

  beforeAll(async () => {
    child = spawn(process.execPath, [CLI_ENTRY, "demo", "--serve"], {
      cwd: projectRoot(),
      // PORT=0: the demo must print the port it got, not one it assumed.
      env: { ...process.env, DATABASE_URL: "pglite:memory", PORT: "0", LOG_LEVEL: "info", APP_BASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      const collect = (chunk: Buffer) => {
        output += chunk.toString();
        // The log line and the printed requests are two streams: wait for both.
        if (/orders\/[0-9a-f-]{36}'\n/.test(output) && /listening on http:\/\/localhost:\d+/.test(output))
          resolve();
      };
      child.stdout?.on("data", collect);
      child.stderr?.on("data", collect);
      void exited.then((code) => reject(new Error(`the demo exited with ${code}:\n${output}`)));
    });
    port = Number(/listening on http:\/\/localhost:(\d+)/.exec(output)?.[1]);
  }, 120_000);
  afterAll(async () => {
    child?.kill("SIGTERM");
    await exited;
  });

  it("prints requests for the address it listens on, and the first one works in a shell", async () => {
    expect(port).toBeGreaterThan(0);
    const requests = output.split("\n").filter((line) => line.startsWith("curl "));
    expect(requests.length).toBeGreaterThan(0);
    for (const request of requests) expect(request).not.toContain("localhost:4000");
    const [first = ""] = requests;
    expect(first).toContain(`http://localhost:${port}/api/public/buyer/v1/`);
    const { stdout } = await run("bash", ["-c", `${first} -w '\\n%{http_code}'`]);
    const [status, ...body] = stdout.trimEnd().split("\n").reverse();
    expect(status).toBe("200");
    expect(JSON.parse(body.reverse().join("\n"))).toHaveLength(5);
  });

  it("points to its front page, which shows the demo key", async () => {
    expect(output).toContain(`Open http://localhost:${port}/`);
    const key = /API key: (\S+)/.exec(output)?.[1] ?? "";
    const page = await (await fetch(`http://127.0.0.1:${port}/`)).text();
    expect(key).toMatch(/^bpk_/);
    expect(page).toContain(key);
  });

  it.each([
    ["GET /healthz", "GET /healthz HTTP/1.1", "HTTP/1.1 200 OK"],
    ["GET /", "GET / HTTP/1.1", "HTTP/1.1 200 OK"],
    ["GET /docs/", "GET /docs/ HTTP/1.1", "HTTP/1.1 308 Permanent Redirect"],
    ["a REST request without a key", "GET /api/public/buyer/v1/orders HTTP/1.1", "HTTP/1.1 401 Unauthorized"],
    ["an unknown path", "GET /nowhere HTTP/1.1", "HTTP/1.1 404 Not Found"],
  ])("%s has a reason phrase on its status line", async (_name, requestLine, expected) => {
    expect(await rawStatusLine(port, `${requestLine}\r\nHost: localhost\r\nConnection: close\r\n\r\n`)).toBe(
      expected,
    );
  });
});
