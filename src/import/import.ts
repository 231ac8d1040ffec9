// Import of one file: validate everything, then write everything in one
// transaction, or write nothing and say why.
import { readFile } from "node:fs/promises";
import type { Database } from "../db/database.js";
import { inOwnTransaction } from "../db/sql-connection.js";
import { type ImportProblem, sortProblems } from "./problems.js";
import { validateImport } from "./validate.js";
import { type KindCount, type ProgressListener, writeImport } from "./write.js";

export type ImportOutcome = { ok: true; counts: KindCount[] } | { ok: false; problems: ImportProblem[] };

export interface ImportOptions {
  onProgress?: ProgressListener;
}

class Rejected extends Error {
  constructor(readonly problems: ImportProblem[]) {
    super("import rejected");
  }
}

/** Imports a parsed file (docs/reference/import-format.md); nothing is written unless the whole file is valid. */
export async function importData(
  database: Pick<Database, "connect">,
  input: unknown,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  try {
    // Validation reads inside the writing transaction, so that what it checked
    // against is what the rows are written next to.
    const counts = await inOwnTransaction(database, async (tx) => {
      const validation = await validateImport(input, tx);
      if (!validation.ok) throw new Rejected(sortProblems(validation.problems));
      return writeImport(tx, validation.plan, options.onProgress);
    });
    return { ok: true, counts };
  } catch (error) {
    if (error instanceof Rejected) return { ok: false, problems: error.problems };
    throw error;
  }
}

/** Parses JSON text and imports it; text that is not JSON is one problem. */
export async function importJson(
  database: Pick<Database, "connect">,
  json: string,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  let input: unknown;
  try {
    input = JSON.parse(json);
  } catch (error) {
    return {
      ok: false,
      problems: [{ path: "", message: `the file is not valid JSON: ${(error as Error).message}` }],
    };
  }
  return importData(database, input, options);
}

export async function importFile(
  database: Pick<Database, "connect">,
  file: string,
  options: ImportOptions = {},
): Promise<ImportOutcome> {
  return importJson(database, await readFile(file, "utf8"), options);
}
