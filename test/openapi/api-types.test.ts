// The typed-client types and the client package's types and operations are
// generated from the document; they must not lag behind it, or integrators'
// and our own typed tests check a stale API.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { renderGeneratedFiles } from "../../tools/api-types.js";

it("the generated files match the OpenAPI document (run `npm run openapi:types` when they do not)", async () => {
  for (const [file, current] of Object.entries(await renderGeneratedFiles())) {
    const committed = readFileSync(file, "utf8");
    expect(committed === current, `${file} is stale: run \`npm run openapi:types\``).toBe(true);
  }
});
