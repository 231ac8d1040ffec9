import { LRUCache } from "lru-cache";
import {
  openPostgresReader,
  type PostgresReader,
  type QueryObserver,
  type Reader,
  serverName,
} from "./readers.js";
import {
  oneLine,
  type Replica,
  ReplicaHealth,
  type ReplicaStatus,
  statusOf,
  walPositionOf,
} from "./replica-health.js";

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

export type { ReplicaState, ReplicaStatus } from "./replica-health.js";
export { walPositionOf } from "./replica-health.js";

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
  idleTimeoutMs: number;
  transactionWaitMs: number;
  statementTimeoutMs?: number;
  namedStatements: boolean;
  onQuery?: QueryObserver;
  warn?: (message: string) => void;
}

const DEFAULT_POLL_MS = 100;
/** A replica that does not give a connection within this long is taken as down, and the read goes to the primary. */
const REPLICA_CONNECT_TIMEOUT_MS = 1_000;
/** Buyers whose version, and where it was first seen, a process remembers. */
const REMEMBERED_BUYERS = 100_000;

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
  const replicas = await openReplicas(options.urls, context);
  const health = new ReplicaHealth(replicas, context.reads, options);
  const served = new Map<string, number>([["primary", 0], ...replicas.map((r) => [r.name, 0] as const)]);
  const count = (reader: Reader) => served.set(reader.source, (served.get(reader.source) ?? 0) + 1);
  const firstSeen: FirstSightings = new LRUCache({ max: REMEMBERED_BUYERS });
  let next = 0;

  let checking: Promise<void> | null = null;
  const tick = () => {
    checking ??= health
      .check()
      .catch(() => {})
      .finally(() => {
        checking = null;
      });
    return checking;
  };
  await health.primaryNow().catch(() => {});
  await tick();
  const timer = setInterval(() => void tick(), pollMs);
  timer.unref();

  return {
    readsFor(position) {
      const needed = neededPosition(firstSeen, position);
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
            health.setState(replica, "unreachable", `a read failed: ${oneLine(error)}`);
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

/** A read-only pool on each replica, none of them checked yet. */
async function openReplicas(urls: readonly string[], context: ReplicaSetContext): Promise<Replica[]> {
  const replicas: Replica[] = [];
  for (const url of urls) {
    replicas.push({
      name: serverName(url),
      reader: await openPostgresReader({
        source: serverName(url),
        connectionString: url,
        poolSize: context.poolSize,
        idleTimeoutMs: context.idleTimeoutMs,
        transactionWaitMs: context.transactionWaitMs,
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
  return replicas;
}

/** Each buyer's version, and the primary's WAL position when this process first saw it. */
type FirstSightings = LRUCache<string, { version: bigint; position: bigint }>;

/** Where this process first saw the buyer's current version: every replica at or past it has that version. */
function neededPosition(firstSeen: FirstSightings, { buyerId, version, walPosition }: ReadPosition): bigint {
  const now = walPositionOf(walPosition);
  const seen = firstSeen.get(buyerId);
  // Positions only grow, so the first sighting's is the lowest.
  if (seen && seen.version === version) return seen.position;
  if (!seen || seen.version < version) firstSeen.set(buyerId, { version, position: now });
  return now;
}
