// Runs once in the runner's own process, before any test file.
import { saveSnapshots } from "./pglite-snapshot.js";
import { onPostgres } from "./test-database.js";

export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  return onPostgres ? undefined : saveSnapshots();
}
