import type { Command } from "commander";
import { withDatabase } from "../context.js";

export function registerCatalogue(program: Command): void {
  const catalogue = program.command("catalogue").description("maintain the shared product catalogue");

  catalogue
    .command("renormalize")
    .description(
      "recompute every product's match keys (normalised name, code, synonyms); run after upgrading auto-match",
    )
    .action(async () => {
      await withDatabase(async (database) => {
        const { renormalizeCatalogue } = await import("../../services/catalogue-renormalize.js");
        const report = await renormalizeCatalogue(database.prisma);
        process.stdout.write(
          `${report.checked} catalogue product(s) checked, ${report.updated} with new match keys.\n`,
        );
      });
    });
}
