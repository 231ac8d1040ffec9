// The health check of the read replicas: how far each has replayed, how far
// behind the primary that is, and whether it may serve reads at all.
import type { PostgresReader } from "./readers.js";

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

/** One replica as the health check last found it. */
export interface Replica {
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

export interface ReplicaHealthOptions {
  /** A replica further behind the primary than this is not used until it catches up. */
  maxLagMs: number;
  /** Told whenever a replica starts or stops being used, and why. */
  onChange?: (status: ReplicaStatus) => void;
}

/** How often the lag in buyer versions (a sum over every buyer) is counted. */
const VERSIONS_EVERY_MS = 2_000;

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

/**
 * Asks each replica how far it has replayed, then the primary where it has
 * written to, and sets each replica's state from the answers.
 */
export class ReplicaHealth {
  /** Where the primary was, when: how far behind a replica is in time. */
  private readonly samples: { at: number; position: bigint }[] = [];
  private readonly keepSamplesMs: number;
  private versionsCountedAt = 0;

  constructor(
    private readonly replicas: readonly Replica[],
    /** The primary's read pool, which answers the primary's health statements. */
    private readonly primaryReads: PostgresReader,
    private readonly options: ReplicaHealthOptions,
  ) {
    this.keepSamplesMs = Math.max(10_000, options.maxLagMs * 2);
  }

  setState(replica: Replica, state: ReplicaState, reason: string | null): void {
    // A lagging replica's reason changes with every check; only a new state or refusal is news.
    const changed = replica.state !== state || (state === "refused" && replica.reason !== reason);
    replica.state = state;
    replica.reason = reason;
    if (changed) this.options.onChange?.(statusOf(replica));
  }

  /** The primary's state, its WAL position kept as a sample. */
  async primaryNow(): Promise<PrimaryRow> {
    const [row] = await this.primaryReads.probe<PrimaryRow>(PRIMARY_STATE);
    if (!row) throw new Error("the primary returned no state");
    const { samples } = this;
    samples.push({ at: Date.now(), position: walPositionOf(row.position) });
    while (samples.length > 2 && (samples[0]?.at ?? 0) < Date.now() - this.keepSamplesMs) samples.shift();
    return row;
  }

  async check(): Promise<void> {
    // Replicas first, then the primary: a replica's position can then never
    // be past the primary's unless it follows another history.
    const answers = await Promise.allSettled(
      this.replicas.map(async (replica) => {
        const [row] = await replica.reader.probe<ReplicaRow>(REPLICA_STATE);
        replica.polledAt = Date.now();
        return row;
      }),
    );
    let primary: PrimaryRow;
    try {
      primary = await this.primaryNow();
    } catch {
      // Without the primary nothing is served; the replicas keep their state.
      return;
    }
    for (const [index, replica] of this.replicas.entries()) {
      const answer = answers[index];
      if (!answer || answer.status === "rejected" || !answer.value) {
        this.setState(replica, "unreachable", oneLine(answer?.status === "rejected" ? answer.reason : null));
        continue;
      }
      this.judge(replica, answer.value, primary);
    }
    if (Date.now() - this.versionsCountedAt >= VERSIONS_EVERY_MS) {
      this.versionsCountedAt = Date.now();
      await this.countVersionsBehind();
    }
  }

  /** Sets the state of a replica that answered, from its answer and the primary's. */
  private judge(replica: Replica, row: ReplicaRow, primary: PrimaryRow): void {
    const position = row.position === null ? null : walPositionOf(row.position);
    if (row.system !== primary.system) {
      this.setState(replica, "refused", "another PostgreSQL cluster, not a replica of the primary");
    } else if (!row.recovering || position === null) {
      this.setState(replica, "refused", "not in recovery: promoted, or not a streaming replica");
    } else if (row.schema_version !== primary.schema_version) {
      this.setState(
        replica,
        "refused",
        `schema version ${row.schema_version ?? "none"}, the primary's ${primary.schema_version ?? "none"}`,
      );
    } else if (position > walPositionOf(primary.position)) {
      this.setState(replica, "refused", "diverged: it has replayed past the primary's position");
    } else {
      replica.replayed = position;
      replica.lagSeconds = this.lagOf(replica);
      if (replica.lagSeconds === null) this.setState(replica, "lagging", "lag not known yet");
      else if (replica.lagSeconds * 1000 > this.options.maxLagMs)
        this.setState(replica, "lagging", `${replica.lagSeconds.toFixed(1)} s behind the primary`);
      else this.setState(replica, "in_use", null);
    }
  }

  /** How long ago the primary had nothing the replica has not replayed. */
  private lagOf(replica: Replica): number | null {
    const { samples } = this;
    const newest = samples.at(-1);
    if (!newest) return null;
    if (replica.replayed >= newest.position) return 0;
    for (let index = samples.length - 1; index >= 0; index--) {
      const sample = samples[index];
      if (sample && sample.position <= replica.replayed)
        return Math.max(0, replica.polledAt - sample.at) / 1000;
    }
    return null;
  }

  /** Buyer versions each replica lacks: the sum of all versions on the primary less the replica's. */
  private async countVersionsBehind(): Promise<void> {
    const reachable = this.replicas.filter((replica) => replica.state !== "unreachable");
    const totals = await Promise.allSettled(
      reachable.map((replica) => replica.reader.probe<{ total: string }>(VERSIONS_TOTAL)),
    );
    const [primary] = await this.primaryReads.probe<{ total: string }>(VERSIONS_TOTAL).catch(() => []);
    for (const [index, replica] of reachable.entries()) {
      const total = totals[index];
      replica.lagVersions =
        primary && total?.status === "fulfilled" && total.value[0]
          ? Math.max(0, Number(BigInt(primary.total) - BigInt(total.value[0].total)))
          : null;
    }
  }
}

export function statusOf(replica: Replica): ReplicaStatus {
  const { name, state, reason, lagSeconds, lagVersions } = replica;
  return { name, state, reason, lagSeconds, lagVersions };
}

/** The first line of an error's message, for a replica's reason. */
export function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error ?? "no answer");
  return message.split("\n")[0]?.slice(0, 200) || "no answer";
}
