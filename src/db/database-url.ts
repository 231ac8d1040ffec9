/** Where the data lives, decided from `DATABASE_URL`. */
export type DatabaseTarget =
  | { kind: "pglite"; dataDir: string | null; description: string }
  | { kind: "postgres"; connectionString: string; description: string };

export const DEFAULT_DATABASE_URL = "pglite:./.data/pglite";

export class DatabaseUrlError extends Error {}

/**
 * `pglite:memory` keeps data in memory, `pglite:<dir>` in a folder,
 * `postgres://` and `postgresql://` connect to PostgreSQL.
 */
export function parseDatabaseUrl(raw: string | undefined): DatabaseTarget {
  const url = raw === undefined || raw.trim() === "" ? DEFAULT_DATABASE_URL : raw.trim();
  if (url.startsWith("pglite:")) {
    const location = url.slice("pglite:".length);
    if (location === "memory" || location === "memory://") {
      return { kind: "pglite", dataDir: null, description: "PGlite (in memory)" };
    }
    if (location === "") {
      throw new DatabaseUrlError("DATABASE_URL 'pglite:' needs a folder (pglite:./.data/pglite) or 'memory'");
    }
    return { kind: "pglite", dataDir: location, description: `PGlite (${location})` };
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    try {
      const parsed = new URL(url);
      return {
        kind: "postgres",
        connectionString: url,
        description: `PostgreSQL (${parsed.hostname}:${parsed.port || "5432"}${parsed.pathname})`,
      };
    } catch {
      throw new DatabaseUrlError("DATABASE_URL is not a valid postgres:// URL");
    }
  }
  const scheme = url.includes(":") ? url.slice(0, url.indexOf(":")) : url;
  throw new DatabaseUrlError(
    `DATABASE_URL scheme '${scheme}' is not supported: use pglite:<dir>, pglite:memory or postgres://...`,
  );
}
