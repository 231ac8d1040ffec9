// graphql-codegen's client preset over the committed schema.graphql, as a
// front-end team sets it up (docs/reference/graphql.md). Here it types the dashboard
// test's documents and writes their persisted-documents manifest:
// `npm run graphql:types`; a test fails when the output is stale.
import type { CodegenConfig } from "@graphql-codegen/cli";

export const DASHBOARD_TYPES_DIR = "test/generated/dashboard/";

const config: CodegenConfig = {
  // Imports with `.js`, as this repository's ES modules need.
  importExtension: ".js",
  schema: "schema.graphql",
  documents: ["test/dashboard/screens.ts"],
  generates: {
    [DASHBOARD_TYPES_DIR]: {
      preset: "client",
      presetConfig: { persistedDocuments: true, fragmentMasking: false },
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: { UUID: "string", Date: "string", DateTime: "string", Decimal: "string", JSON: "unknown" },
      },
    },
  },
};

export default config;
