// A PostgreSQL primary and a streaming replica of it, as two real clusters of
// their own (initdb, pg_basebackup -R) in a temporary folder on free local
// ports, for the replication tests and the replica bench; or one cluster, for
// tests that stop and start their database. The machine's own
// cluster is never touched. Run as root, every server command runs as the
// `postgres` user, since PostgreSQL refuses to run as root.
import { execFile, type SpawnSyncReturns, spawnSync } from "node:child_process";
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

/** Where initdb, pg_ctl and pg_basebackup are: `PG_BIN`, else the newest /usr/lib/postgresql/<version>/bin; null when missing. */
export function postgresServerBinaries(): string | null {
  const candidates = process.env.PG_BIN
    ? [process.env.PG_BIN]
    : listVersions("/usr/lib/postgresql").map((version) => path.join("/usr/lib/postgresql", version, "bin"));
  return (
    candidates.find((dir) =>
      ["initdb", "pg_ctl", "pg_basebackup"].every((tool) => existsSync(path.join(dir, tool))),
    ) ?? null
  );
}

function listVersions(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
  } catch {
    return [];
  }
}

export interface ReplicatedClusters {
  /** postgres:// URL of `database` on the primary. */
  primaryUrl(database: string): string;
  /** postgres:// URL of `database` on the replica. */
  replicaUrl(database: string): string;
  /** Creates a database on the primary (the replica gets it by replication). */
  createDatabase(database: string): Promise<void>;
  /** Stops the replica (`pg_ctl stop -m fast`: its sessions are ended); the caller goes on meanwhile. */
  stopReplica(): Promise<void>;
  /** Starts the stopped replica again; it resumes streaming from where it was. */
  startReplica(): Promise<void>;
  /** Promotes the replica to a primary of its own (`pg_ctl promote`): from then on it is no replica. */
  promoteReplica(): Promise<void>;
  /** Whether the replica has replayed everything the primary had written when asked. */
  replicaCaughtUp(database: string): Promise<boolean>;
  /** Stops both clusters and removes their folder. */
  close(): void;
}

export interface ClusterOptions {
  /** `recovery_min_apply_delay` of the replica: how long it holds each commit back, so that staleness would show. */
  applyDelayMs: number;
}

/** Starts a primary and a replica streaming from it. */
export async function startReplicatedClusters(options: ClusterOptions): Promise<ReplicatedClusters> {
  const bin = postgresServerBinaries();
  if (!bin) throw new Error("the PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) are missing");
  const root = mkdtempSync(path.join(os.tmpdir(), "bpa-replication-"));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? userIds("postgres") : null;
  if (owner) chownSync(root, owner.uid, owner.gid);
  const primaryDir = path.join(root, "primary");
  const replicaDir = path.join(root, "replica");
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];

  const run = (tool: string, args: string[]): SpawnSyncReturns<string> => {
    const command = path.join(bin, tool);
    const result = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", command, ...args], { encoding: "utf8" })
      : spawnSync(command, args, { encoding: "utf8" });
    if (result.status !== 0) {
      throw new Error(`${tool} ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
    }
    return result;
  };
  const pgCtl = (dir: string, action: string[]) =>
    run("pg_ctl", ["-D", dir, "-l", `${dir}.log`, "-w", "-t", "60", ...action]);
  const settings = (dir: string, lines: string[]) =>
    appendFileSync(path.join(dir, "postgresql.conf"), `\n${lines.join("\n")}\n`);

  let started: string[] = [];
  const close = () => {
    for (const dir of started) {
      spawnSync(...runArgs(asRoot, path.join(bin, "pg_ctl"), ["-D", dir, "-m", "immediate", "-w", "stop"]));
    }
    started = [];
    rmSync(root, { recursive: true, force: true });
  };
  // Whatever ends this process, the clusters go with it.
  process.once("exit", close);

  try {
    run("initdb", ["-D", primaryDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
    settings(primaryDir, [
      `port = ${primaryPort}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${root}'`,
      "wal_level = replica",
      "max_wal_senders = 4",
      "wal_keep_size = '256MB'",
      // Throwaway clusters: durability buys nothing here.
      "fsync = off",
      "full_page_writes = off",
      "shared_buffers = '32MB'",
      "max_connections = 200",
    ]);
    pgCtl(primaryDir, ["start"]);
    started.push(primaryDir);
    run("pg_basebackup", [
      ...["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres"],
      ...["-D", replicaDir, "-R", "-X", "stream", "--no-sync"],
    ]);
    settings(replicaDir, [
      `port = ${replicaPort}`,
      `recovery_min_apply_delay = '${Math.trunc(options.applyDelayMs)}ms'`,
      "hot_standby = on",
      "hot_standby_feedback = on",
    ]);
    pgCtl(replicaDir, ["start"]);
    started.push(replicaDir);
  } catch (error) {
    close();
    throw error;
  }

  const url = (port: number, database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const withClient = async <T>(connectionString: string, work: (client: pg.Client) => Promise<T>) => {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  };
  return {
    primaryUrl: (database) => url(primaryPort, database),
    replicaUrl: (database) => url(replicaPort, database),
    async createDatabase(database) {
      await withClient(url(primaryPort, "postgres"), (client) =>
        client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`),
      );
    },
    async stopReplica() {
      await runAsync(asRoot, path.join(bin, "pg_ctl"), ["-D", replicaDir, "-m", "fast", "-w", "stop"]);
      started = started.filter((dir) => dir !== replicaDir);
    },
    async startReplica() {
      const log = `${replicaDir}.log`;
      await runAsync(asRoot, path.join(bin, "pg_ctl"), [
        "-D",
        replicaDir,
        "-l",
        log,
        "-w",
        "-t",
        "60",
        "start",
      ]);
      started.push(replicaDir);
    },
    async promoteReplica() {
      await runAsync(asRoot, path.join(bin, "pg_ctl"), ["-D", replicaDir, "-w", "promote"]);
    },
    async replicaCaughtUp(database) {
      const primary = await withClient(url(primaryPort, database), (client) =>
        client.query<{ position: string }>("SELECT pg_current_wal_insert_lsn()::text AS position"),
      );
      try {
        const replica = await withClient(url(replicaPort, database), (client) =>
          client.query<{ caught_up: boolean }>("SELECT pg_last_wal_replay_lsn() >= $1::pg_lsn AS caught_up", [
            primary.rows[0]?.position,
          ]),
        );
        return replica.rows[0]?.caught_up === true;
      } catch (error) {
        // The replica has not yet replayed the database's creation (it applies with a delay).
        if ((error as { code?: unknown }).code === INVALID_CATALOG_NAME) return false;
        throw error;
      }
    },
    close() {
      process.removeListener("exit", close);
      close();
    },
  };
}

export interface Cluster {
  /** postgres:// URL of `database`. */
  url(database: string): string;
  createDatabase(database: string): Promise<void>;
  /** Stops the cluster (`pg_ctl stop -m fast`: its sessions are ended); its port then refuses connections. */
  stop(): Promise<void>;
  /** Starts the stopped cluster again on the same port. */
  start(): Promise<void>;
  /** Stops the cluster and removes its folder. */
  close(): void;
}

/** One throwaway cluster of its own on a free local port, for tests that stop their database. */
export async function startCluster(): Promise<Cluster> {
  const bin = postgresServerBinaries();
  if (!bin) throw new Error("the PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) are missing");
  const root = mkdtempSync(path.join(os.tmpdir(), "bpa-cluster-"));
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? userIds("postgres") : null;
  if (owner) chownSync(root, owner.uid, owner.gid);
  const dir = path.join(root, "data");
  const port = await freePort();
  const pgCtl = (action: string[]) =>
    runAsync(asRoot, path.join(bin, "pg_ctl"), ["-D", dir, "-l", `${dir}.log`, "-w", "-t", "60", ...action]);
  let running = false;
  const close = () => {
    if (running)
      spawnSync(...runArgs(asRoot, path.join(bin, "pg_ctl"), ["-D", dir, "-m", "immediate", "-w", "stop"]));
    running = false;
    rmSync(root, { recursive: true, force: true });
  };
  process.once("exit", close);
  try {
    await runAsync(asRoot, path.join(bin, "initdb"), [
      "-D",
      dir,
      "-U",
      "postgres",
      "--auth=trust",
      "--no-sync",
      "-E",
      "UTF8",
    ]);
    appendFileSync(
      path.join(dir, "postgresql.conf"),
      `\nport = ${port}\nlisten_addresses = '127.0.0.1'\nunix_socket_directories = '${root}'\nfsync = off\nshared_buffers = '32MB'\n`,
    );
    await pgCtl(["start"]);
    running = true;
  } catch (error) {
    close();
    throw error;
  }
  const url = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    url,
    async createDatabase(database) {
      const client = new pg.Client({ connectionString: url("postgres") });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${database.replaceAll('"', '""')}"`);
      } finally {
        await client.end();
      }
    },
    async stop() {
      await runAsync(asRoot, path.join(bin, "pg_ctl"), ["-D", dir, "-m", "fast", "-w", "stop"]);
      running = false;
    },
    async start() {
      await pgCtl(["start"]);
      running = true;
    },
    close() {
      process.removeListener("exit", close);
      close();
    },
  };
}

function runAsync(asRoot: boolean, command: string, args: string[]): Promise<void> {
  const [file, fileArgs] = runArgs(asRoot, command, args);
  return new Promise((resolve, reject) =>
    execFile(file, fileArgs, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(" ")} failed:\n${stdout}${stderr}`)) : resolve(),
    ),
  );
}

function runArgs(asRoot: boolean, command: string, args: string[]): [string, string[]] {
  return asRoot ? ["runuser", ["-u", "postgres", "--", command, ...args]] : [command, args];
}

function userIds(name: string): { uid: number; gid: number } {
  const uid = spawnSync("id", ["-u", name], { encoding: "utf8" });
  const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
  if (uid.status !== 0 || gid.status !== 0) throw new Error(`there is no user ${name} to run PostgreSQL as`);
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** PostgreSQL's SQLSTATE for a database that does not exist. */
const INVALID_CATALOG_NAME = "3D000";

/** A TCP port nothing listens on now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
