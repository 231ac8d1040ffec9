// The settings every connection of a read pool opens with, sent as startup
// parameters so that no read costs a statement of its own, and how logs,
// readiness and metrics name a server (never with its password).
import { describe, expect, it } from "vitest";
import { readConnectionConfig, serverName } from "../../src/db/readers.js";

describe("a read pool's connection settings", () => {
  it("are read-only, with the statement timeout in whole milliseconds", () => {
    expect(readConnectionConfig("postgres://app:secret@db.example:6432/buyers", 2_500.7)).toEqual({
      connectionString: "postgres://app:secret@db.example:6432/buyers",
      options: "-c default_transaction_read_only=on -c statement_timeout=2500",
    });
  });

  it("keep generic plans for the planned reads' statements only when asked, and no timeout when none is set", () => {
    expect(readConnectionConfig("postgres://db/buyers", undefined, true).options).toBe(
      "-c default_transaction_read_only=on -c plan_cache_mode=force_generic_plan",
    );
    expect(readConnectionConfig("postgres://db/buyers", undefined).options).toBe(
      "-c default_transaction_read_only=on",
    );
  });

  it("keep options the URL already gives, in front, and take them out of the URL", () => {
    const config = readConnectionConfig(
      "postgres://db/buyers?sslmode=require&options=-c%20search_path%3Dapi",
      1_000,
    );
    expect(config.options).toBe(
      "-c search_path=api -c default_transaction_read_only=on -c statement_timeout=1000",
    );
    expect(config.connectionString).toBe("postgres://db/buyers?sslmode=require");
  });
});

describe("a server's name", () => {
  it("is host:port/database, without user or password, with PostgreSQL's defaults filled in", () => {
    expect(serverName("postgres://app:secret@db.example:6432/buyers?sslmode=require")).toBe(
      "db.example:6432/buyers",
    );
    expect(serverName("postgres://replica-1/buyers")).toBe("replica-1:5432/buyers");
  });
});
