// docs/reference/graphql.md's recipe for Apollo Client with graphql-codegen's persisted
// documents, run as written: codegen generates the typed documents and the
// manifest, the server accepts only that manifest, and Apollo sends each
// document by its hash (over GET). Without the recipe's `__typename`
// transform, Apollo's cache cannot tell which fragment applies and drops its
// fields without an error; the test shows both.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ApolloClient, HttpLink, InMemoryCache } from "@apollo/client";
import { PersistedQueryLink } from "@apollo/client/link/persisted-queries";
import { generate } from "@graphql-codegen/cli";
import { addTypenameSelectionDocumentTransform } from "@graphql-codegen/client-preset";
import type { DocumentNode } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { type SeededBuyer, seedBuyer, seedOrders } from "../support/seed.js";
import { createTestApp, type TestApp } from "../support/test-app.js";
import { GRAPHQL } from "./helpers.js";

const SCREEN = `
fragment OrderRow on Order { id orderReference orderStatus }
query RecentOrders { orders(first: 2) { edges { node { ...OrderRow } } } }
`;

/** A document from the client preset with `persistedDocuments: true`: its manifest id in `__meta__`. */
type PersistedDocument = DocumentNode & { __meta__?: { hash?: string } };

/** Runs the client preset as a front-end's codegen.ts does; the typed documents and the manifest's path. */
async function runCodegen(directory: string, recipe: boolean) {
  const output = join(directory, recipe ? "recipe" : "without-typename", "gql/");
  const files: { filename: string; content: string }[] = await generate(
    {
      silent: true,
      schema: "schema.graphql",
      documents: [join(directory, "screen.graphql")],
      generates: {
        [output]: {
          preset: "client",
          presetConfig: { persistedDocuments: true },
          // The recipe's line: Apollo's cache needs `__typename` to match fragments.
          ...(recipe ? { documentTransforms: [addTypenameSelectionDocumentTransform] } : {}),
        },
      },
    },
    false,
  );
  for (const { filename, content } of files) {
    mkdirSync(dirname(filename), { recursive: true });
    writeFileSync(filename, content);
  }
  const generated = (await import(join(output, "graphql.ts"))) as { RecentOrdersDocument: PersistedDocument };
  return { document: generated.RecentOrdersDocument, manifest: join(output, "persisted-documents.json") };
}

describe("Apollo Client over graphql-codegen's persisted documents (docs/reference/graphql.md)", {
  timeout: 120_000,
}, () => {
  const directory = mkdtempSync(join(tmpdir(), "bpa-apollo-codegen-"));
  let harness: TestApp;
  let buyer: SeededBuyer;
  let recipe: PersistedDocument;
  let withoutTypename: PersistedDocument;
  const sent: { method: string; status: number }[] = [];

  beforeAll(async () => {
    writeFileSync(join(directory, "screen.graphql"), SCREEN);
    const withRecipe = await runCodegen(directory, true);
    const without = await runCodegen(directory, false);
    recipe = withRecipe.document;
    withoutTypename = without.document;
    // One deployment's manifest holding both builds' documents.
    const manifest = join(directory, "persisted-documents.json");
    writeFileSync(
      manifest,
      JSON.stringify({
        ...JSON.parse(readFileSync(withRecipe.manifest, "utf8")),
        ...JSON.parse(readFileSync(without.manifest, "utf8")),
      }),
    );
    const config = loadConfig({ GRAPHQL_PERSISTED_DOCUMENTS: manifest, GRAPHQL_PERSISTED_ONLY: "true" });
    harness = await createTestApp({ graphql: { persistedDocuments: config.graphql.persistedDocuments } });
    buyer = await seedBuyer(harness.database, "apollo-codegen");
    await seedOrders(harness.database, buyer, [{ createdAt: new Date(Date.UTC(2026, 0, 1)) }]);
  }, 120_000);
  afterAll(async () => {
    await harness?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  /** The recipe's client: the manifest id codegen wrote into the document, sent by GET. */
  function apolloClient() {
    const persisted = new PersistedQueryLink({
      generateHash: (document) => {
        const hash = (document as PersistedDocument).__meta__?.hash;
        if (!hash) throw new Error("a document codegen did not generate");
        return hash;
      },
      useGETForHashedQueries: true,
    });
    const fetchThroughApp: typeof fetch = async (input, init) => {
      const response = await harness.app.fetch(new Request(input, init));
      sent.push({ method: init?.method ?? "GET", status: response.status });
      return response;
    };
    return new ApolloClient({
      cache: new InMemoryCache(),
      link: persisted.concat(
        new HttpLink({ uri: GRAPHQL, fetch: fetchThroughApp, headers: { "x-api-key": buyer.apiKey } }),
      ),
    });
  }

  it("keeps every field of a fragment, asked by hash alone over GET", async () => {
    sent.length = 0;
    const { data } = await apolloClient().query({ query: recipe });
    expect(data).toMatchObject({
      orders: {
        edges: [{ node: { __typename: "Order", orderReference: "ORD-0", orderStatus: expect.any(String) } }],
      },
    });
    expect(sent).toEqual([{ method: "GET", status: 200 }]);
  });

  it("without the recipe's __typename transform, Apollo drops the fragment's fields", async () => {
    const { data } = await apolloClient().query({ query: withoutTypename });
    expect(data).toEqual({ orders: { edges: [{ node: {} }] } });
  });

  it("is the recipe docs/reference/graphql.md gives", () => {
    const docs = readFileSync("docs/reference/graphql.md", "utf8");
    expect(docs).toContain("documentTransforms: [addTypenameSelectionDocumentTransform]");
    expect(docs).toContain("presetConfig: { persistedDocuments: true }");
    expect(docs).toContain("generateHash: (document) =>");
    expect(docs).toContain("useGETForHashedQueries: true");
  });
});
