// The persisted documents settings (GRAPHQL_PERSISTED_DOCUMENTS,
// GRAPHQL_PERSISTED_ONLY): a manifest as graphql-codegen's client preset writes
// it is read at start, and one that cannot be trusted stops the process there
// with one line, rather than running the wrong document later. How the server
// answers with them is in persisted-documents.test.ts.
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_GRAPHQL_CONFIG, loadConfig } from "../../src/config.js";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("the persisted documents settings", () => {
  const directory = mkdtempSync(join(tmpdir(), "bpa-persisted-config-"));
  const write = (name: string, text: string) => {
    const path = join(directory, name);
    writeFileSync(path, text);
    return path;
  };
  const problemsOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return [];
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
  };

  it("stop the process at start, one line each, when the manifest is missing, not JSON or stale", () => {
    expect(problemsOf({ GRAPHQL_PERSISTED_ONLY: "true" })).toEqual([
      "GRAPHQL_PERSISTED_ONLY: needs GRAPHQL_PERSISTED_DOCUMENTS, the manifest of accepted documents",
    ]);
    expect(problemsOf({ GRAPHQL_PERSISTED_DOCUMENTS: join(directory, "absent.json") })[0]).toMatch(
      /cannot be read$/,
    );
    expect(problemsOf({ GRAPHQL_PERSISTED_DOCUMENTS: write("bad.json", "{") })[0]).toMatch(/is not JSON$/);
    const stale = write("stale.json", JSON.stringify({ [sha256("query { a }")]: "query { b }" }));
    expect(problemsOf({ GRAPHQL_PERSISTED_DOCUMENTS: stale })[0]).toMatch(/whose sha256 is not its key/);
  });

  it("refuse a manifest that is not an object of hash → document, naming the entry", () => {
    const list = write("list.json", JSON.stringify(["query { a }"]));
    expect(problemsOf({ GRAPHQL_PERSISTED_DOCUMENTS: list })).toEqual([
      expect.stringMatching(/must be a JSON object of sha256 hash → document$/),
    ]);
    const hash = sha256("query { a }");
    const numbered = write("numbered.json", JSON.stringify({ [hash]: 1 }));
    expect(problemsOf({ GRAPHQL_PERSISTED_DOCUMENTS: numbered })).toEqual([
      expect.stringMatching(new RegExp(`has a non-string document under ${hash}$`)),
    ]);
  });

  it("read a manifest's documents by their sha256, written bare or as `sha256:<hex>`", () => {
    const orders = "query Orders { orders { edges { node { id } } } }";
    const viewer = "query Viewer { viewer { buyer { id } } }";
    const path = write(
      "manifest.json",
      JSON.stringify({ [`sha256:${sha256(orders)}`]: orders, [sha256(viewer)]: viewer }),
    );
    const { persistedDocuments } = loadConfig({
      GRAPHQL_PERSISTED_DOCUMENTS: path,
      GRAPHQL_PERSISTED_ONLY: "true",
    }).graphql;
    expect(persistedDocuments.only).toBe(true);
    expect([...persistedDocuments.manifest]).toEqual([
      [sha256(orders), orders],
      [sha256(viewer), viewer],
    ]);
  });

  it("accept every document by default", () => {
    expect(DEFAULT_GRAPHQL_CONFIG.persistedDocuments.only).toBe(false);
    expect(loadConfig({}).graphql.persistedDocuments).toEqual({ manifest: new Map(), only: false });
  });
});
