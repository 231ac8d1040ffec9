import type { Command } from "commander";
import { databaseOptions } from "../../config/database-options.js";
import { loadConfig } from "../../config.js";

export function registerDb(program: Command): void {
  const db = program.command("db").description("database maintenance");

  db.command("migrate")
    .description("apply pending migrations from prisma/migrations and list the ones applied")
    .action(async () => {
      const config = loadConfig();
      const { migrateDatabase } = await import("../../db/migrations.js");
      const { openReachableDatabase } = await import("../../db/startup.js");
      // Opened without openDatabaseForUse, which would migrate PGlite on its own
      // before this command could report what it applied.
      const database = await openReachableDatabase(config.database, databaseOptions(config, "command"));
      try {
        const report = await migrateDatabase(database);
        for (const name of report.applied) process.stdout.write(`applied ${name}\n`);
        process.stdout.write(
          report.applied.length === 0
            ? `${config.database.description} is up to date (${report.alreadyApplied} migration(s) applied before).\n`
            : `${config.database.description}: ${report.applied.length} migration(s) applied, ${report.alreadyApplied} before.\n`,
        );
      } finally {
        await database.close();
      }
    });
}
