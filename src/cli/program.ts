import { Command, CommanderError } from "commander";
import { registerBuyers } from "./commands/buyers.js";
import { registerCatalogue } from "./commands/catalogue.js";
import { registerDb } from "./commands/db.js";
import { registerDemo } from "./commands/demo.js";
import { registerImport } from "./commands/import.js";
import { registerKeys } from "./commands/keys.js";
import { registerWebhooks } from "./commands/webhooks.js";
import { reportFailure } from "./context.js";

export function buildProgram(): Command {
  const program = new Command("buyer-api")
    .description(
      "Operator commands for the Buyer Public API.\n\n" +
        "The database is DATABASE_URL (default pglite:./.data/pglite); see also MIGRATE_ON_START. " +
        "A PGlite folder serves one process: while the server or the demo runs on it, these commands " +
        "are refused; stop it first.",
    )
    .showHelpAfterError()
    // Failures are turned into exit codes by runCli, which also closes what is open.
    .exitOverride();
  registerImport(program);
  registerBuyers(program);
  registerKeys(program);
  registerDemo(program);
  registerDb(program);
  registerCatalogue(program);
  registerWebhooks(program);
  return program;
}

/** Runs the CLI on `argv` (as process.argv) and returns the exit code. */
export async function runCli(argv: readonly string[]): Promise<number> {
  try {
    await buildProgram().parseAsync([...argv]);
    return 0;
  } catch (error) {
    // Commander has already printed its own message (or the help).
    if (error instanceof CommanderError) return error.exitCode;
    return reportFailure(error);
  }
}
