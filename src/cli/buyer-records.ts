// The commands about one buyer's records (`keys`, `webhooks`): the buyer that
// `--buyer` names, and the `list` command that shows its records as a table.
import type { Command } from "commander";
import type { Database } from "../db/database.js";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import { CliError, requireUuid, withDatabase } from "./context.js";
import { listing } from "./table.js";

/** The buyer `--buyer` names; a CliError saying where to find ids when there is none. */
export async function findBuyer(database: Database, id: string) {
  const buyer = await database.prisma.buyer.findUnique({ where: { id: requireUuid(id, "--buyer") } });
  if (!buyer) throw new CliError(`no buyer with id ${id} (see \`buyer-api buyers list\`)`);
  return buyer;
}

/** The buyer's rows, oldest first. */
type BuyerRowsQuery = {
  where: { buyerId: string };
  orderBy: [{ createdAt: "asc" }, { id: "asc" }];
};

export interface BuyerListOptions<Row> {
  description: string;
  /** What the buyer may have none of: "API keys" prints "<buyer> has no API keys.". */
  plural: string;
  /** Prisma's `findMany` of the records, with the buyer's query. */
  findMany: (prisma: PrismaClient, query: BuyerRowsQuery) => Promise<Row[]>;
  headers: readonly string[];
  cells: (row: Row) => readonly (string | number)[];
}

/** `<group> list --buyer <id>`: the buyer's records as a table, oldest first. */
export function addBuyerListCommand<Row>(group: Command, options: BuyerListOptions<Row>): void {
  group
    .command("list")
    .description(options.description)
    .requiredOption("--buyer <id>", "the buyer's id")
    .action(async ({ buyer: buyerId }: { buyer: string }) => {
      // A refused id is told before the database opens.
      requireUuid(buyerId, "--buyer");
      await withDatabase(async (database) => {
        const buyer = await findBuyer(database, buyerId);
        const rows = await options.findMany(database.prisma, {
          where: { buyerId: buyer.id },
          orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        });
        const none = `${buyer.name} has no ${options.plural}.`;
        process.stdout.write(listing(rows, none, options.headers, options.cells));
      });
    });
}
