// The demo dataset (data/demo.json), loaded through the ordinary import so that
// it is validated like any other file. It goes into an empty database only: a
// database with data is the operator's, and the import would set records
// changed since back to the file's values.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { hashApiKey } from "../auth/api-key-format.js";
import type { Database } from "../db/database.js";
import { importData } from "../import/import.js";
import { formatProblem } from "../import/problems.js";
import { projectRoot } from "../project-root.js";

export const DEMO_DATA_FILE = path.join(projectRoot(), "data", "demo.json");

export interface DemoData {
  /** The first demo buyer's fixed API key. */
  apiKey: string;
  buyerName: string;
  /** An order of that buyer in status order_placed in the file, for an example PATCH. */
  orderId: string;
}

/**
 * `loaded`: the database was empty and now holds the demo data. Otherwise it
 * is left as it was, and `demo` is null unless the demo key still works in it.
 */
export type DemoOutcome = { loaded: true; demo: DemoData } | { loaded: false; demo: DemoData | null };

interface DemoFile {
  buyers: { id: string; name: string; api_keys: string[] }[];
  orders: { id: string; buyer_id: string; order_status: string }[];
}

function demoDataOf(input: DemoFile): DemoData {
  const [buyer] = input.buyers;
  const apiKey = buyer?.api_keys[0];
  const order = input.orders.find((o) => o.buyer_id === buyer?.id && o.order_status === "order_placed");
  if (!buyer || !apiKey || !order)
    throw new Error(`${DEMO_DATA_FILE} lacks a buyer with a key and a placed order`);
  return { apiKey, buyerName: buyer.name, orderId: order.id };
}

/** Whether the database holds any record an import or the API would have written. */
async function hasData(database: Pick<Database, "prisma">): Promise<boolean> {
  const { prisma } = database;
  const found = await Promise.all([
    prisma.buyer.findFirst({ select: { id: true } }),
    prisma.supplier.findFirst({ select: { id: true } }),
    prisma.product.findFirst({ select: { id: true } }),
  ]);
  return found.some((row) => row !== null);
}

export async function loadDemoData(database: Pick<Database, "connect" | "prisma">): Promise<DemoOutcome> {
  const input = JSON.parse(await readFile(DEMO_DATA_FILE, "utf8")) as DemoFile;
  const demo = demoDataOf(input);
  if (await hasData(database)) {
    const key = await database.prisma.apiKey.findUnique({
      where: { hash: hashApiKey(demo.apiKey) },
      select: { revokedAt: true },
    });
    return { loaded: false, demo: key && key.revokedAt === null ? demo : null };
  }
  const outcome = await importData(database, input);
  if (!outcome.ok) {
    throw new Error(
      `${DEMO_DATA_FILE} is not a valid import file: ${outcome.problems.map(formatProblem).join("; ")}`,
    );
  }
  return { loaded: true, demo };
}
