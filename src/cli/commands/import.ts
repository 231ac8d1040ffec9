import path from "node:path";
import type { Command } from "commander";
import type { importFile } from "../../import/import.js";
import { formatProblem } from "../../import/problems.js";
import type { KindCount } from "../../import/write.js";
import { CliError, withDatabase } from "../context.js";
import { importProgress } from "../progress.js";
import { formatTable } from "../table.js";

export function formatCounts(counts: readonly KindCount[]): string {
  return formatTable(
    ["kind", "in file", "new", "updated", "unchanged", "removed"],
    counts.map((count) => [
      count.kind,
      count.inserted + count.updated + count.unchanged,
      count.inserted,
      count.updated,
      count.unchanged,
      count.deleted ?? 0,
    ]),
  );
}

/** One line saying how many stored records the import set to the file's values. */
export function describeUpdates(counts: readonly KindCount[]): string {
  const updated = counts.reduce((sum, count) => sum + count.updated, 0);
  if (updated === 0) return "No stored record differed from the file.\n";
  return updated === 1
    ? "1 stored record differed from the file and now matches it.\n"
    : `${updated} stored records differed from the file and now match it.\n`;
}

export function registerImport(program: Command): void {
  program
    .command("import")
    .summary("load buyers, suppliers, catalogue, approvals and orders from a JSON file")
    .description(
      "Loads an import file (version 1, see docs/reference/import-format.md). The whole file is validated first: " +
        "if anything is wrong, every bad value is listed by its JSON path on stderr, nothing is written " +
        "and the exit code is 1. Otherwise everything is written in one transaction.\n\n" +
        "Records are upserted by id and the file is the source of truth for the records it carries: a " +
        "stored record that differs from the file, changed through the API or otherwise, is set to what " +
        "the file says, and the summary counts these as updated. Importing the same file twice in a row " +
        "changes nothing the second time.",
    )
    .argument("<file>", "path of the JSON import file")
    .action(async (file: string) => {
      const started = performance.now();
      await withDatabase(async (database, config) => {
        // On a terminal, say what the first seconds of a large file are spent on.
        if (process.stderr.isTTY) process.stderr.write(`Reading and validating ${file}...\n`);
        const progress = importProgress();
        let outcome: Awaited<ReturnType<typeof importFile>>;
        try {
          const { importFile } = await import("../../import/import.js");
          outcome = await importFile(database, file, { onProgress: progress.listener });
        } catch (error) {
          if ((error as { code?: unknown }).code === "ENOENT") throw new CliError(`no such file: ${file}`);
          throw error;
        } finally {
          progress.stop();
        }
        if (!outcome.ok) {
          for (const problem of outcome.problems) process.stderr.write(`${formatProblem(problem)}\n`);
          throw new CliError(
            `${path.basename(file)} was not imported: ${outcome.problems.length} problem(s), nothing was written`,
          );
        }
        const seconds = ((performance.now() - started) / 1000).toFixed(1);
        process.stdout.write(`Imported ${file} into ${config.database.description} in ${seconds} s\n`);
        process.stdout.write(formatCounts(outcome.counts));
        process.stdout.write(describeUpdates(outcome.counts));
      });
    });
}
