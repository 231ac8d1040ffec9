// The typed-client types are generated from the document; they must not lag
// behind it, or integrators' and our own typed tests check a stale API.
import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { API_TYPES_FILE, renderApiTypes } from "../../tools/api-types.js";

it(`${API_TYPES_FILE} matches the OpenAPI document (run \`npm run openapi:types\` when it does not)`, async () => {
  const committed = readFileSync(API_TYPES_FILE, "utf8");
  const current = await renderApiTypes();
  expect(committed === current, `${API_TYPES_FILE} is stale: run \`npm run openapi:types\``).toBe(true);
});
