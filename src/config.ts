// Configuration from the environment, checked at start. What each variable
// is, its default and the AppConfig field it fills are written once, in the
// table (src/config/table.ts); everything here is read from it.
import { type ConfigOf, INVALID, Reading, readTable } from "./config/setting.js";
import { CONFIG_TABLE } from "./config/table.js";

export { LOG_LEVELS } from "./config/values.js";
export { DEVELOPMENT_WEBHOOK_SECRET_KEY, usesDevelopmentKey } from "./config/webhook-settings.js";

export type AppConfig = ConfigOf<typeof CONFIG_TABLE>;
export type GraphQLConfig = AppConfig["graphql"];
/** What one GraphQL operation may ask for before it is refused unexecuted. */
export type GraphQLLimits = GraphQLConfig["limits"];
/** How much work GraphQL operations may do once they run. */
export type GraphQLWorkBounds = GraphQLConfig["work"];
/** What /graphql keeps in memory in one server process, whatever clients send. */
export type GraphQLMemoryBounds = GraphQLConfig["memory"];
/** Documents clients may send by hash instead of in full (docs/reference/graphql.md "Persisted documents"). */
export type PersistedDocumentsConfig = GraphQLConfig["persistedDocuments"];
/** Webhook endpoints and their deliveries (docs/reference/webhooks.md). */
export type WebhookConfig = AppConfig["webhooks"];

/** One line per bad variable: which one and why. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join("\n"));
  }
}

/** Rules between variables, checked once each is valid on its own. */
/**
 * Variables that were renamed: a deployment still setting the old name is
 * stopped with the new one rather than quietly losing its setting.
 */
const RENAMED_VARIABLES: Readonly<Record<string, string>> = {
  GRAPHQL_MAX_CONCURRENT_EXPENSIVE: "MAX_CONCURRENT_EXPENSIVE_PER_KEY",
};

function renamedVariables(environment: NodeJS.ProcessEnv): string[] {
  return Object.entries(RENAMED_VARIABLES)
    .filter(([old]) => environment[old] !== undefined)
    .map(
      ([old, name]) =>
        `${old}: renamed to ${name}, which now bounds REST's large pages too; set that instead`,
    );
}

function problemsBetweenVariables(config: AppConfig): string[] {
  const problems: string[] = [];
  if (config.database.kind === "pglite" && config.webConcurrency > 1) {
    problems.push(
      "WEB_CONCURRENCY: the embedded database (PGlite) serves one process; use 1, or PostgreSQL for more",
    );
  }
  if (config.database.kind === "pglite" && config.databaseReplicaUrls.length > 0) {
    problems.push("DATABASE_REPLICA_URLS: replicas need DATABASE_URL to be PostgreSQL, not PGlite");
  }
  return problems;
}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): AppConfig {
  const reading = new Reading(environment);
  const config = readTable(CONFIG_TABLE, reading);
  if (config === INVALID) throw new ConfigError([...reading.problems, ...renamedVariables(environment)]);
  const problems = [
    ...reading.problems,
    ...renamedVariables(environment),
    ...problemsBetweenVariables(config),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Every setting at its default: what an empty environment gives. */
export const DEFAULT_CONFIG: AppConfig = loadConfig({});
export const DEFAULT_GRAPHQL_CONFIG: GraphQLConfig = DEFAULT_CONFIG.graphql;
export const DEFAULT_GRAPHQL_LIMITS: GraphQLLimits = DEFAULT_GRAPHQL_CONFIG.limits;
export const DEFAULT_GRAPHQL_WORK_BOUNDS: GraphQLWorkBounds = DEFAULT_GRAPHQL_CONFIG.work;
export const DEFAULT_GRAPHQL_MEMORY_BOUNDS: GraphQLMemoryBounds = DEFAULT_GRAPHQL_CONFIG.memory;
export const DEFAULT_WEBHOOK_CONFIG: WebhookConfig = DEFAULT_CONFIG.webhooks;

export type ConfigOverrides = Partial<Omit<AppConfig, "graphql" | "webhooks">> & {
  graphql?: Partial<GraphQLConfig>;
  webhooks?: Partial<WebhookConfig>;
};

/** The defaults with some settings replaced: how tests and scripts that build an app directly configure it. */
export function configWith({ graphql, webhooks, ...settings }: ConfigOverrides = {}): AppConfig {
  return {
    ...DEFAULT_CONFIG,
    ...settings,
    graphql: { ...DEFAULT_GRAPHQL_CONFIG, ...graphql },
    webhooks: { ...DEFAULT_WEBHOOK_CONFIG, ...webhooks },
  };
}
