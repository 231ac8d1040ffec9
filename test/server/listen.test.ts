// Where a server listens: a port taken by another process, a port the
// process may not bind and a host that is not the machine's are told in one
// line naming the setting to change; the URL a start prints is one a client
// on this machine can open.
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listen, listenProblem, localUrl, reservePort } from "../../src/server/listen.js";

const HOST = "127.0.0.1";

describe("a port another server holds", () => {
  let holder: Server;
  let port: number;
  beforeAll(async () => {
    holder = createServer();
    port = await new Promise<number>((resolve) =>
      holder.listen(0, HOST, () => resolve((holder.address() as { port: number }).port)),
    );
  });
  afterAll(async () => {
    await new Promise((resolve) => holder.close(resolve));
  });

  it("is refused when reserved, in one line naming PORT and the host", async () => {
    const refusal = await reservePort({ port, host: HOST }).catch((error: unknown) => error);
    expect((refusal as NodeJS.ErrnoException).code).toBe("EADDRINUSE");
    expect(listenProblem(refusal, { port, host: HOST })).toBe(
      `PORT ${port} is already in use on ${HOST}: stop what listens there, or set PORT to a free port`,
    );
  });

  it("is not shared with a worker's socket either, even one asking for SO_REUSEPORT", async () => {
    const second = createServer();
    const refusal = await listen(second, { port, host: HOST }, true).catch((error: unknown) => error);
    expect((refusal as NodeJS.ErrnoException).code).toBe("EADDRINUSE");
    expect(second.listening).toBe(false);
  });
});

describe("reserving a port", () => {
  it("gives the kernel's pick for port 0, free again for the server to take", async () => {
    const port = await reservePort({ port: 0, host: HOST });
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await listen(server, { port, host: HOST });
    expect((server.address() as { port: number }).port).toBe(port);
    await new Promise((resolve) => server.close(resolve));
  });
});

describe("what a refused listen tells", () => {
  const address = { port: 80, host: "203.0.113.9" };
  const failure = (code: string) => Object.assign(new Error(code), { code });

  it("asks for a port of 1024 or above when binding needs privileges", () => {
    expect(listenProblem(failure("EACCES"), address)).toBe(
      "PORT 80 on 203.0.113.9 needs privileges this process does not have: set PORT to 1024 or above",
    );
  });

  it("names HOST when it is not an address of this machine", () => {
    expect(listenProblem(failure("EADDRNOTAVAIL"), address)).toBe(
      "HOST 203.0.113.9 is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0",
    );
  });

  it("leaves an error that is not about the address to be reported as it is", () => {
    expect(listenProblem(failure("EMFILE"), address)).toBeNull();
    expect(listenProblem(new Error("no code"), address)).toBeNull();
  });
});

describe("the URL a local client opens", () => {
  it.each([
    ["0.0.0.0", "http://localhost:3000"],
    ["::", "http://localhost:3000"],
    ["", "http://localhost:3000"],
    ["127.0.0.1", "http://127.0.0.1:3000"],
    ["::1", "http://[::1]:3000"],
    ["api.internal", "http://api.internal:3000"],
  ])("for HOST=%s is %s", (host, url) => {
    expect(localUrl(host, 3000)).toBe(url);
  });
});
