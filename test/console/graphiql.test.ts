// The GraphQL console as it opens: with the query it runs at once (one the
// schema accepts, so a newcomer's first run answers data, not errors), the
// key header to fill in and where a key comes from; in the demo, the demo's
// key already in place. The page served by the app is console-routes.test.ts's.
import { parse, validate } from "graphql";
import { describe, expect, it } from "vitest";
import { API_KEY_HEADER_TEMPLATE, EXAMPLE_OPERATION, graphiqlOptions } from "../../src/graphql/graphiql.js";
import { schema } from "../../src/schema/index.js";

const DEMO_KEY = "bpk_demo_aurora_cosmetics_000000000000000001";

describe("GraphiQL's opening state", () => {
  it("runs an example query the schema accepts", () => {
    expect(validate(schema, parse(EXAMPLE_OPERATION)).map((error) => error.message)).toEqual([]);
    expect(graphiqlOptions().defaultQuery).toContain(EXAMPLE_OPERATION);
    expect(graphiqlOptions(DEMO_KEY).defaultQuery).toContain(EXAMPLE_OPERATION);
  });

  it("says where a key comes from, with a placeholder in the X-API-KEY header", () => {
    const options = graphiqlOptions();
    expect(options.defaultQuery).toContain("buyer-api keys create --buyer <buyer id>");
    expect(options.headers).toBe(API_KEY_HEADER_TEMPLATE);
    expect(JSON.parse(options.headers ?? "{}")).toEqual({ "X-API-KEY": "bpk_paste_your_api_key_here" });
    expect(options.defaultEditorToolsVisibility).toBe("headers");
  });

  it("has the demo's key in its header when the server runs the demo, and no placeholder", () => {
    const options = graphiqlOptions(DEMO_KEY);
    expect(JSON.parse(options.headers ?? "{}")).toEqual({ "X-API-KEY": DEMO_KEY });
    expect(options.defaultQuery).not.toContain("buyer-api keys create");
  });

  it("keeps a key typed in to the browser tab, not its storage", () => {
    expect(graphiqlOptions().shouldPersistHeaders).toBe(false);
    expect(graphiqlOptions(DEMO_KEY).shouldPersistHeaders).toBe(false);
  });
});
