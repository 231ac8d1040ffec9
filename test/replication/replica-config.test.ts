// DATABASE_REPLICA_URLS and DATABASE_REPLICA_MAX_LAG: empty by default, and a
// bad value stops the start with one line that names the variable (and, for
// a URL, its place in the list rather than the URL, which may hold a password).
import { describe, expect, it } from "vitest";
import { DEFAULT_CONFIG } from "../../src/config.js";
import { configProblems } from "../support/config-problems.js";

const POSTGRES = "postgres://buyer_api@db:5432/buyer_api";

describe("replica configuration", () => {
  it("has no replicas by default, and a 5 s lag bound", () => {
    expect(DEFAULT_CONFIG.databaseReplicaUrls).toEqual([]);
    expect(DEFAULT_CONFIG.databaseReplicaMaxLagMs).toBe(5_000);
  });

  it("accepts a comma-separated list of postgres:// URLs", () => {
    expect(
      configProblems({
        DATABASE_URL: POSTGRES,
        DATABASE_REPLICA_URLS: " postgres://r1:5432/buyer_api, postgresql://u:secret@r2/buyer_api ,",
        DATABASE_REPLICA_MAX_LAG: "750ms",
      }),
    ).toEqual([]);
  });

  it("stops the start with one line for a malformed URL, naming its place and not its text", () => {
    const problems = configProblems({
      DATABASE_URL: POSTGRES,
      DATABASE_REPLICA_URLS: "postgres://r1:5432/buyer_api,mysql://u:hunter2@r2/db",
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^DATABASE_REPLICA_URLS: .*item 2 is not a postgres:\/\/user@host:5432\/db URL/,
    );
    expect(problems[0]).not.toContain("hunter2");
  });

  it("refuses replicas of the embedded database, and a lag bound that is not a duration", () => {
    expect(
      configProblems({ DATABASE_URL: "pglite:memory", DATABASE_REPLICA_URLS: "postgres://r1/buyer_api" }),
    ).toEqual(["DATABASE_REPLICA_URLS: replicas need DATABASE_URL to be PostgreSQL, not PGlite"]);
    const [lag] = configProblems({ DATABASE_URL: POSTGRES, DATABASE_REPLICA_MAX_LAG: "5" });
    expect(lag).toMatch(/^DATABASE_REPLICA_MAX_LAG: /);
  });
});
