import { ConfigError, loadConfig } from "../../src/config.js";

/** The lines `loadConfig` refuses this environment with; none when it is accepted. */
export function configProblems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}
