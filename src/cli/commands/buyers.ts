import type { Command } from "commander";
import { createBuyer } from "../../services/buyers.js";
import { CliError, withDatabase } from "../context.js";
import { formatTimestamp, listing } from "../table.js";

export function registerBuyers(program: Command): void {
  const buyers = program.command("buyers").description("create and list buyer organisations");

  buyers
    .command("create")
    .description("create a buyer organisation and print its id")
    .requiredOption("--name <name>", "the organisation's name")
    .action(async (options: { name: string }) => {
      const name = options.name.trim();
      if (name === "" || name.length > 255) throw new CliError("--name must be 1 to 255 characters");
      await withDatabase(async (database) => {
        // The id alone, so that scripts can capture it: BUYER=$(buyer-api buyers create --name ...)
        process.stdout.write(`${await createBuyer(database.prisma, name)}\n`);
      });
    });

  buyers
    .command("list")
    .description("list buyer organisations with their count of active API keys")
    .action(async () => {
      await withDatabase(async (database) => {
        const rows = await database.prisma.buyer.findMany({
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
          include: { _count: { select: { apiKeys: { where: { revokedAt: null } } } } },
        });
        const none = "No buyers yet: create one with `buyer-api buyers create --name NAME`.";
        process.stdout.write(
          listing(rows, none, ["id", "name", "active keys", "created"], (buyer) => [
            buyer.id,
            buyer.name,
            buyer._count.apiKeys,
            formatTimestamp(buyer.createdAt),
          ]),
        );
      });
    });
}
