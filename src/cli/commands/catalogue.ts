import type { Command } from "commander";
import { renormalizeCatalogue } from "../../services/catalogue-renormalize.js";
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
        const report = await renormalizeCatalogue(database.prisma);
        process.stdout.write(
          `${report.checked} catalogue product(s) checked, ${report.updated} with new match keys.\n`,
        );
      });
    });
}
