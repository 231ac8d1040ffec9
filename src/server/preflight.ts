// What a server's start checks before anything slow (a build, the database):
// the configuration and the port. Light on purpose: `npm start` and `npm run
// demo` run it before they build, or before they start when nothing needs
// building (scripts/build-when-changed.js).
import { type AppConfig, ConfigError, loadConfig } from "../config.js";
import { type ListenAddress, listenProblem, reservePort } from "./listen.js";

/**
 * The port a server can listen on at `address` (the kernel's pick for port
 * 0), or one line saying why not on stderr and exit code 1: checked before
 * anything slow (a build, the database) so that a busy port is told at once.
 */
export async function portOrExit(address: ListenAddress): Promise<number> {
  try {
    return await reservePort(address);
  } catch (error) {
    const problem = listenProblem(error, address);
    if (!problem) throw error;
    console.error(problem);
    process.exit(1);
  }
}

/** The configuration, or one line per bad variable on stderr and exit code 2. */
export function loadConfigOrExit(): AppConfig {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) console.error(`config: ${problem}`);
      process.exit(2);
    }
    throw error;
  }
}
