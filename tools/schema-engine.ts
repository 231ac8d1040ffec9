// Prisma's schema engine as WebAssembly, for authoring migrations and checking
// drift on machines where the native engine binary cannot be downloaded.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { MigrationDirectory } from "@prisma/schema-engine-wasm";
import * as engineBindings from "@prisma/schema-engine-wasm/schema_engine_bg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { MIGRATIONS_DIR, readMigrations } from "../src/db/migrations.js";
import { projectRoot } from "../src/project-root.js";

export const SCHEMA_PATH = path.join(projectRoot(), "prisma", "schema.prisma");

let instantiated = false;

/** Our lib settings carry no DOM types, where TypeScript declares WebAssembly. */
interface MinimalWebAssembly {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, object>) => { exports: Record<string, unknown> };
}

/** Node 20 cannot import .wasm modules, so the bindings get their instance by hand. */
function instantiateEngine(): void {
  if (instantiated) return;
  const entry = fileURLToPath(import.meta.resolve("@prisma/schema-engine-wasm"));
  const bytes = readFileSync(path.join(path.dirname(entry), "schema_engine_bg.wasm"));
  const wasm = (globalThis as unknown as { WebAssembly: MinimalWebAssembly }).WebAssembly;
  const instance = new wasm.Instance(new wasm.Module(bytes), { "./schema_engine_bg.js": engineBindings });
  engineBindings.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  instantiated = true;
}

/**
 * Shadow databases are fresh in-memory PGlite instances with the extensions
 * our migrations use. pglite-prisma-adapter's own shadow lacks extensions and
 * its executeScript does not await and it names no schema, so those are
 * replaced here.
 */
function shadowAdapterFactory(opened: PGlite[], startFrom: Blob | undefined) {
  const connect = async () => {
    const pglite = await PGlite.create({
      extensions: { pg_trgm },
      ...(startFrom ? { loadDataDir: startFrom } : {}),
    });
    opened.push(pglite);
    const adapter = await new PrismaPGlite(pglite).connect();
    adapter.executeScript = async (script: string) => {
      await pglite.exec(script);
    };
    // The engine needs a schema name; the adapter leaves it undefined.
    adapter.getConnectionInfo = () => ({ schemaName: "public", supportsRelationJoins: true });
    return adapter;
  };
  // The engine expects Prisma's error-capturing wrapper, which returns results, not throws.
  return bindMigrationAwareSqlAdapterFactory({
    provider: "postgres",
    adapterName: "pglite-shadow",
    connect,
    connectToShadowDb: connect,
  });
}

function migrationDirectories(dir: string): MigrationDirectory[] {
  return readMigrations(dir).map((migration) => ({
    path: migration.name,
    migrationFile: { path: "migration.sql", content: { tag: "ok", value: migration.sql } },
  }));
}

/**
 * SQL that brings a database built from the migrations folder to schema.prisma; "" when none is needed.
 * `startFrom`: an empty PGlite data folder (`dumpDataDir`'s archive) each scratch database starts
 * from, sparing PGlite's initdb (the tests' saved one).
 */
export async function diffMigrationsToSchema(
  migrationsDir: string = MIGRATIONS_DIR,
  schemaPath: string = SCHEMA_PATH,
  startFrom?: Blob,
): Promise<string> {
  instantiateEngine();
  const schema = readFileSync(schemaPath, "utf8");
  const opened: PGlite[] = [];
  const engine = await engineBindings.SchemaEngine.new(
    { datamodels: [[schemaPath, schema]] },
    () => {},
    shadowAdapterFactory(opened, startFrom),
  );
  try {
    const lockfilePath = path.join(migrationsDir, "migration_lock.toml");
    const lockfile = existsSync(lockfilePath) ? readFileSync(lockfilePath, "utf8") : null;
    const result = await engine.diff({
      from: {
        tag: "migrations",
        baseDir: migrationsDir,
        lockfile: { path: "migration_lock.toml", content: lockfile },
        shadowDbInitScript: "",
        migrationDirectories: migrationDirectories(migrationsDir),
      },
      to: { tag: "schemaDatamodel", files: [{ path: schemaPath, content: schema }] },
      script: true,
      exitCode: null,
      filters: { externalTables: [], externalEnums: [] },
    });
    const sql = result.stdout ?? "";
    return sql.includes("This is an empty migration.") ? "" : sql;
  } finally {
    engine.free();
    await Promise.all(opened.map((db) => db.close()));
  }
}
