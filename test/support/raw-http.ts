import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { connect } from "node:net";
import { afterAll, beforeAll } from "vitest";

// HTTP over a bare socket, for what fetch cannot send or does not show: malformed requests, the
// status line as written on the wire, a connection held open.

export interface RawAnswer {
  status: number;
  /** Header lines as sent, names lower-cased. */
  headers: [string, string][];
  body: string;
}

/** The values of the answer's header `name` (lower case), in the order sent. */
export function headerValues(answer: RawAnswer, name: string): string[] {
  return answer.headers.filter(([header]) => header === name).map(([, value]) => value);
}

/**
 * Writes `bytes` to the server on 127.0.0.1:`port` (and holds the connection
 * open without sending more), then reads until the server closes it.
 */
export function rawExchange(port: number, bytes: string | Buffer): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no end of answer within 10 s: ${Buffer.concat(chunks).toString("latin1")}`));
    }, 10_000);
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("close", () => {
      clearTimeout(timer);
      const received = Buffer.concat(chunks).toString("latin1");
      const headEnd = received.indexOf("\r\n\r\n");
      const [statusLine = "", ...lines] = received.slice(0, headEnd).split("\r\n");
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(statusLine)?.[1] ?? 0),
        headers: lines.map((line) => {
          const colon = line.indexOf(":");
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
        body: headEnd < 0 ? "" : received.slice(headEnd + 4),
      });
    });
    // A reset after the answer arrived still leaves the answer to check.
    socket.on("error", () => {});
    socket.write(bytes);
  });
}

/** The status line the server on 127.0.0.1:`port` answers `request` with, as written on the wire. */
export function rawStatusLine(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk: string) => {
      received += chunk;
      const end = received.indexOf("\r\n");
      if (end >= 0) {
        socket.destroy();
        resolve(received.slice(0, end));
      }
    });
    socket.on("close", () => reject(new Error(`closed before a whole status line: ${received}`)));
    socket.on("error", reject);
    socket.write(request);
  });
}

/**
 * Serves `server` on a free loopback port while the tests of the enclosing
 * `describe` run, closing its connections after them; gives the port.
 */
export function servedOnLoopback(server: Server): () => number {
  let port = 0;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  return () => port;
}
