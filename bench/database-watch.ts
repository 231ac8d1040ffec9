import pg from "pg";
import { cpuMs } from "./proc.js";

export interface DatabaseWatch {
  /** Resolves once no other session of the database is running a statement or sits in a transaction (max 60 s). */
  wait(): Promise<void>;
  /** CPU each PostgreSQL backend serving this database has used so far, by pid. */
  backendCpu(): Promise<Map<number, number>>;
  close(): Promise<void>;
}

/**
 * Watches the scratch database from its own session. Requests a measurement
 * abandoned may still be queued in PostgreSQL (an advisory lock, a row lock)
 * without using any server CPU; the next measurement must not start beside
 * them. And PostgreSQL shares the machine's cores with the servers, so its
 * CPU per request is part of what a request costs.
 */
export async function watchDatabase(databaseUrl: string): Promise<DatabaseWatch> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const others = `FROM pg_stat_activity
    WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`;
  return {
    async wait() {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        const { rows } = await client.query<{ busy: number }>(
          `SELECT count(*)::int AS busy ${others} AND state NOT IN ('idle')`,
        );
        if ((rows[0]?.busy ?? 0) === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async backendCpu() {
      const { rows } = await client.query<{ pid: number }>(`SELECT pid ${others}`);
      const cpu = new Map<number, number>();
      for (const { pid } of rows) {
        try {
          cpu.set(pid, cpuMs(pid));
        } catch {
          // the session ended meanwhile
        }
      }
      return cpu;
    },
    close: () => client.end(),
  };
}

/** CPU the backends used between two readings; sessions that started in between count from zero. */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, value] of after) total += value - (before.get(pid) ?? 0);
  return total;
}
