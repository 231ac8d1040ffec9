import { createServer, type Server } from "node:net";

export interface ListenAddress {
  port: number;
  host: string;
}

/**
 * Starts `server` listening. With `reusePort` (a cluster's workers) each
 * process has its own listening socket on the shared port and the kernel
 * spreads new connections over them (SO_REUSEPORT); where the platform has
 * no such option, the workers share the port through node:cluster's primary.
 */
export async function listen(server: Server, address: ListenAddress, reusePort = false): Promise<void> {
  try {
    await listenOnce(server, { ...address, reusePort });
  } catch (error) {
    if (!reusePort || (error as NodeJS.ErrnoException).code !== "ENOTSUP") throw error;
    await listenOnce(server, { ...address, reusePort: false });
  }
}

function listenOnce(server: Server, options: ListenAddress & { reusePort: boolean }): Promise<void> {
  return new Promise((resolve, reject) => {
    const fail = (error: Error) => reject(error);
    server.once("error", fail);
    server.listen(options, () => {
      server.off("error", fail);
      resolve();
    });
  });
}

/**
 * The port a cluster's workers will share: PORT itself, or the one the
 * kernel picks for PORT=0. Bound once without SO_REUSEPORT, so that a port
 * another process listens on is refused here rather than shared with it.
 */
export async function reservePort(address: ListenAddress): Promise<number> {
  const probe = createServer();
  await listenOnce(probe, { ...address, reusePort: false });
  const bound = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return typeof bound === "object" && bound ? bound.port : address.port;
}

/** One line saying why the server cannot listen, or null for an error that is not about its address. */
export function listenProblem(error: unknown, address: ListenAddress): string | null {
  switch ((error as NodeJS.ErrnoException).code) {
    case "EADDRINUSE":
      return `PORT ${address.port} is already in use on ${address.host}: stop what listens there, or set PORT to a free port`;
    case "EACCES":
      return `PORT ${address.port} on ${address.host} needs privileges this process does not have: set PORT to 1024 or above`;
    case "EADDRNOTAVAIL":
      return `HOST ${address.host} is not an address of this machine: set HOST to one of its addresses, or 0.0.0.0`;
    default:
      return null;
  }
}

/**
 * The address a client on this machine reaches a server listening on `host`
 * and `port` at: the wildcard addresses mean any local one.
 */
export function localUrl(host: string, port: number): string {
  const reachable = host === "0.0.0.0" || host === "::" || host === "" ? "localhost" : host;
  return `http://${reachable.includes(":") ? `[${reachable}]` : reachable}:${port}`;
}
