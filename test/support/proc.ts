import { readdirSync, readFileSync, readlinkSync } from "node:fs";

// What Linux's /proc tells of the connections a cluster's workers hold (the workers themselves: childrenOf in bench/proc.ts).

/** Socket inodes of established TCP connections whose local end is `port`. */
export function establishedOn(port: number): Set<string> {
  const inodes = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").trim().split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      const localPort = Number.parseInt(fields[1]?.split(":").at(-1) ?? "", 16);
      if (localPort === port && fields[3] === "01" && fields[9]) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/** How many of those connections the process holds open. */
export function connectionsHeldBy(pid: number, inodes: Set<string>): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).filter((fd) => {
      try {
        return inodes.has(/^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1] ?? "");
      } catch {
        return false;
      }
    }).length;
  } catch {
    return 0;
  }
}
