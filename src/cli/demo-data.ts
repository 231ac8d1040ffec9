// The demo dataset (data/demo.json), loaded through the ordinary import so that
// it is validated like any other file and loading it twice changes nothing.
import { readFile } from "node:fs/promises";
import path from "node:path";
import type { Database } from "../db/database.js";
import { importData } from "../import/import.js";
import { formatProblem } from "../import/problems.js";
import { projectRoot } from "../project-root.js";

export const DEMO_DATA_FILE = path.join(projectRoot(), "data", "demo.json");

export interface DemoData {
  /** The first demo buyer's fixed API key. */
  apiKey: string;
  buyerName: string;
  /** An order of that buyer in status order_placed, for an example PATCH. */
  orderId: string;
}

interface DemoFile {
  buyers: { id: string; name: string; api_keys: string[] }[];
  orders: { id: string; buyer_id: string; order_status: string }[];
}

export async function loadDemoData(database: Pick<Database, "connect">): Promise<DemoData> {
  const input = JSON.parse(await readFile(DEMO_DATA_FILE, "utf8")) as DemoFile;
  const outcome = await importData(database, input);
  if (!outcome.ok) {
    throw new Error(
      `${DEMO_DATA_FILE} is not a valid import file: ${outcome.problems.map(formatProblem).join("; ")}`,
    );
  }
  const [buyer] = input.buyers;
  const apiKey = buyer?.api_keys[0];
  const order = input.orders.find((o) => o.buyer_id === buyer?.id && o.order_status === "order_placed");
  if (!buyer || !apiKey || !order)
    throw new Error(`${DEMO_DATA_FILE} lacks a buyer with a key and a placed order`);
  return { apiKey, buyerName: buyer.name, orderId: order.id };
}
