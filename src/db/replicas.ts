import { LRUCache } from "lru-cache";
import {
  openPostgresReader,
  type PostgresReader,
  type QueryObserver,
  type Reader,
  serverName,
} from "./readers.js";

/**
 * What a request's admission statement read on the primary: the buyer's
 * version, and the primary's WAL insert position as that statement ran. Every
 * transaction the statement saw committed wrote its commit record before that
 * position, so a replica that has replayed up to it has the buyer's version.
 */
export interface ReadPosition {
  buyerId: string;
  version: bigint;
  /** `pg_current_wal_insert_lsn()` as text, e.g. `16/B374D848`. */
  walPosition: string;
}

/** Where one request's reads run. */
export interface ReadChoice {
  /**
   * The reader for one read, counted in the replicas' metrics. `versioned`:
   * the read shows only what the change log versions (the buyer's records,
   * the catalogue rows they show), so a replica that has replayed the buyer's
   * version may serve it; otherwise (webhook endpoints, deliveries, events
   * change without a version) the primary's read pool does.
   */
  reader(versioned: boolean): Reader;
  /** A read on `reader(true)` failed: a replica is set aside until it answers a health check again. */
  failed(error: unknown): void;
}

export interface ReplicaOptions {
  /** `postgres://` URLs of streaming replicas of the primary. */
  urls: readonly string[];
  /** A replica further behind the primary than this is not used until it catches up. */
  maxLagMs: number;
  /** How often each replica and the primary are asked how far they are. */
  pollMs?: number;
  /** Told whenever a replica starts or stops being used, and why. */
  onChange?: (status: ReplicaStatus) => void;
}

export type ReplicaState = "in_use" | "lagging" | "unreachable" | "refused";

export interface ReplicaStatus {
  /** `host:port/database`. */
  name: string;
  state: ReplicaState;
  /** Why it is not in use; null while it is. */
  reason: string | null;
  /** Seconds since the primary last had nothing the replica has not replayed, to within the poll interval; null until known. */
  lagSeconds: number | null;
  /** Buyer versions committed on the primary that the replica has not replayed; null until known. */
  lagVersions: number | null;
}

export interface ReplicaSet {
  readsFor(position: ReadPosition): ReadChoice;
  status(): ReplicaStatus[];
  /** Reads served so far, by server: `primary` and each replica's name. */
  readsServed(): ReadonlyMap<string, number>;
  close(): Promise<void>;
}

export interface ReplicaSetContext {
  /** The primary's read pool: it serves the reads no replica can, and answers the health statements. */
  reads: PostgresReader;
  poolSize: number;
  statementTimeoutMs?: number;
  namedStatements: boolean;
  onQuery?: QueryObserver;
  warn?: (message: string) => void;
}

const DEFAULT_POLL_MS = 100;
/** A replica that does not give a connection within this long is taken as down, and the read goes to the primary. */
const REPLICA_CONNECT_TIMEOUT_MS = 1_000;
/** How often the lag in buyer versions (a sum over every buyer) is counted. */
const VERSIONS_EVERY_MS = 2_000;
/** Buyers whose version, and where it was first seen, a process remembers. */
const REMEMBERED_BUYERS = 100_000;

const SCHEMA_VERSION = `(SELECT max(migration_name) FROM "_prisma_migrations"
  WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL)`;
const SYSTEM_IDENTIFIER = "(SELECT system_identifier::text FROM pg_control_system())";
const PRIMARY_STATE = `SELECT pg_current_wal_insert_lsn()::text AS position,
  ${SYSTEM_IDENTIFIER} AS system, ${SCHEMA_VERSION} AS schema_version`;
const REPLICA_STATE = `SELECT pg_is_in_recovery() AS recovering, pg_last_wal_replay_lsn()::text AS position,
  ${SYSTEM_IDENTIFIER} AS system, ${SCHEMA_VERSION} AS schema_version`;
const VERSIONS_TOTAL = "SELECT coalesce(sum(version), 0)::text AS total FROM buyer_versions";

interface PrimaryRow {
  position: string;
  system: string;
  schema_version: string | null;
}
interface ReplicaRow extends Omit<PrimaryRow, "position"> {
  recovering: boolean;
  position: string | null;
}

/** A WAL position (`16/B374D848`) as a number that orders as positions do. */
export function walPositionOf(text: string): bigint {
  const [high = "", low = ""] = text.split("/");
  return (BigInt(`0x${high}`) << 32n) + BigInt(`0x${low}`);
}

interface Replica {
  readonly name: string;
  readonly reader: PostgresReader;
  state: ReplicaState;
  reason: string | null;
  /** Replayed as of `polledAt`: it only moves on, so an older reading errs on the safe side. */
  replayed: bigint;
  polledAt: number;
  lagSeconds: number | null;
  lagVersions: number | null;
}

/**
 * The replicas reads may use, each with its own pool of read-only connections,
 * and the decision which one a read may use. Every `pollMs` each replica is
 * asked how far it has replayed, then the primary where it has written to;
 * a read of a buyer goes to a replica whose last answer is at or past where
 * this process first saw the buyer's current version, else to the primary.
 * So a read is never older than the buyer's version when its request arrived,
 * and deciding costs no statement. A replica that does not answer, lags
 * past `maxLagMs`, is not in recovery (promoted), belongs to another cluster,
 * has replayed past the primary (diverged) or has another schema version is
 * not used until a later check finds it well.
 */
export async function openReplicaSet(
  options: ReplicaOptions,
  context: ReplicaSetContext,
): Promise<ReplicaSet> {
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const replicas: Replica[] = [];
  for (const url of options.urls) {
    replicas.push({
      name: serverName(url),
      reader: await openPostgresReader({
        source: serverName(url),
        connectionString: url,
        poolSize: context.poolSize,
        statementTimeoutMs: context.statementTimeoutMs,
        connectionTimeoutMs: REPLICA_CONNECT_TIMEOUT_MS,
        namedStatements: context.namedStatements,
        onQuery: context.onQuery,
        warn: context.warn,
      }),
      state: "lagging",
      reason: "not checked yet",
      replayed: 0n,
      polledAt: 0,
      lagSeconds: null,
      lagVersions: null,
    });
  }
  const served = new Map<string, number>([["primary", 0], ...replicas.map((r) => [r.name, 0] as const)]);
  const count = (reader: Reader) => served.set(reader.source, (served.get(reader.source) ?? 0) + 1);
  const firstSeen = new LRUCache<string, { version: bigint; position: bigint }>({ max: REMEMBERED_BUYERS });
  /** Where the primary was, when: how far behind a replica is in time. */
  const samples: { at: number; position: bigint }[] = [];
  const keepSamplesMs = Math.max(10_000, options.maxLagMs * 2);
  let versionsCountedAt = 0;
  let next = 0;

  const setState = (replica: Replica, state: ReplicaState, reason: string | null) => {
    // A lagging replica's reason changes with every check; only a new state or refusal is news.
    const changed = replica.state !== state || (state === "refused" && replica.reason !== reason);
    replica.state = state;
    replica.reason = reason;
    if (changed) options.onChange?.(statusOf(replica));
  };

  const primaryNow = async () => {
    const [row] = await context.reads.probe<PrimaryRow>(PRIMARY_STATE);
    if (!row) throw new Error("the primary returned no state");
    samples.push({ at: Date.now(), position: walPositionOf(row.position) });
    while (samples.length > 2 && (samples[0]?.at ?? 0) < Date.now() - keepSamplesMs) samples.shift();
    return row;
  };

  /** How long ago the primary had nothing the replica has not replayed. */
  const lagOf = (replica: Replica): number | null => {
    const newest = samples.at(-1);
    if (!newest) return null;
    if (replica.replayed >= newest.position) return 0;
    for (let index = samples.length - 1; index >= 0; index--) {
      const sample = samples[index];
      if (sample && sample.position <= replica.replayed)
        return Math.max(0, replica.polledAt - sample.at) / 1000;
    }
    return null;
  };

  const check = async () => {
    // Replicas first, then the primary: a replica's position can then never
    // be past the primary's unless it follows another history.
    const answers = await Promise.allSettled(
      replicas.map(async (replica) => {
        const [row] = await replica.reader.probe<ReplicaRow>(REPLICA_STATE);
        replica.polledAt = Date.now();
        return row;
      }),
    );
    let primary: PrimaryRow;
    try {
      primary = await primaryNow();
    } catch {
      // Without the primary nothing is served; the replicas keep their state.
      return;
    }
    for (const [index, replica] of replicas.entries()) {
      const answer = answers[index];
      if (!answer || answer.status === "rejected" || !answer.value) {
        setState(replica, "unreachable", oneLine(answer?.status === "rejected" ? answer.reason : null));
        continue;
      }
      const row = answer.value;
      const position = row.position === null ? null : walPositionOf(row.position);
      if (row.system !== primary.system) {
        setState(replica, "refused", "another PostgreSQL cluster, not a replica of the primary");
      } else if (!row.recovering || position === null) {
        setState(replica, "refused", "not in recovery: promoted, or not a streaming replica");
      } else if (row.schema_version !== primary.schema_version) {
        setState(
          replica,
          "refused",
          `schema version ${row.schema_version ?? "none"}, the primary's ${primary.schema_version ?? "none"}`,
        );
      } else if (position > walPositionOf(primary.position)) {
        setState(replica, "refused", "diverged: it has replayed past the primary's position");
      } else {
        replica.replayed = position;
        replica.lagSeconds = lagOf(replica);
        if (replica.lagSeconds === null) setState(replica, "lagging", "lag not known yet");
        else if (replica.lagSeconds * 1000 > options.maxLagMs)
          setState(replica, "lagging", `${replica.lagSeconds.toFixed(1)} s behind the primary`);
        else setState(replica, "in_use", null);
      }
    }
    if (Date.now() - versionsCountedAt >= VERSIONS_EVERY_MS) {
      versionsCountedAt = Date.now();
      await countVersionsBehind();
    }
  };

  /** Buyer versions each replica lacks: the sum of all versions on the primary less the replica's. */
  const countVersionsBehind = async () => {
    const reachable = replicas.filter((replica) => replica.state !== "unreachable");
    const totals = await Promise.allSettled(
      reachable.map((replica) => replica.reader.probe<{ total: string }>(VERSIONS_TOTAL)),
    );
    const [primary] = await context.reads.probe<{ total: string }>(VERSIONS_TOTAL).catch(() => []);
    for (const [index, replica] of reachable.entries()) {
      const total = totals[index];
      replica.lagVersions =
        primary && total?.status === "fulfilled" && total.value[0]
          ? Math.max(0, Number(BigInt(primary.total) - BigInt(total.value[0].total)))
          : null;
    }
  };

  /** Where this process first saw the buyer's current version: any replica at or past it has that version. */
  const neededPosition = ({ buyerId, version, walPosition }: ReadPosition): bigint => {
    const now = walPositionOf(walPosition);
    const seen = firstSeen.get(buyerId);
    // Positions only grow, so the first sighting's is the lowest.
    if (seen && seen.version === version) return seen.position;
    if (!seen || seen.version < version) firstSeen.set(buyerId, { version, position: now });
    return now;
  };

  let checking: Promise<void> | null = null;
  const tick = () => {
    checking ??= check()
      .catch(() => {})
      .finally(() => {
        checking = null;
      });
    return checking;
  };
  await primaryNow().catch(() => {});
  await tick();
  const timer = setInterval(() => void tick(), pollMs);
  timer.unref();

  return {
    readsFor(position) {
      const needed = neededPosition(position);
      const ready = replicas.filter((replica) => replica.state === "in_use" && replica.replayed >= needed);
      const replica = ready.length ? ready[next++ % ready.length] : undefined;
      return {
        reader(versioned) {
          const reader = versioned && replica ? replica.reader : context.reads;
          count(reader);
          return reader;
        },
        failed(error) {
          if (replica?.state === "in_use")
            setState(replica, "unreachable", `a read failed: ${oneLine(error)}`);
        },
      };
    },
    status: () => replicas.map(statusOf),
    readsServed: () => served,
    async close() {
      clearInterval(timer);
      await checking;
      await Promise.all(replicas.map((replica) => replica.reader.close()));
    },
  };
}

function statusOf(replica: Replica): ReplicaStatus {
  const { name, state, reason, lagSeconds, lagVersions } = replica;
  return { name, state, reason, lagSeconds, lagVersions };
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error ?? "no answer");
  return message.split("\n")[0]?.slice(0, 200) || "no answer";
}
