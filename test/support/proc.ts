import { readdirSync, readFileSync, readlinkSync } from "node:fs";

// What Linux's /proc tells of a cluster's workers: which processes they are, and which connections each holds.

/** The processes whose parent is `pid`. */
export function childrenOf(pid: number): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        // The command name in parentheses may hold spaces; the parent pid is the second field after it.
        const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

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
