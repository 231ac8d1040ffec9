// A path nothing answers: 404 problem details that point the client at the
// API reference, and for a REST path the path asked for, never at any length.
import { describe, expect, it } from "vitest";
import { DOCS_PATH } from "../../../src/http/api-reference.js";
import { HELP_LINK, noOperation, notFoundResponse } from "../../../src/http/stages/not-found.js";

describe("a path nothing answers", () => {
  it("is 404 not_found linking the API reference", async () => {
    const response = notFoundResponse("req-404");
    expect(response.status).toBe(404);
    expect(response.headers.get("link")).toBe(`<${DOCS_PATH}>; rel="help"`);
    expect(JSON.parse(await response.text())).toMatchObject({
      code: "not_found",
      request_id: "req-404",
      detail: `No such resource; the API reference is at ${DOCS_PATH}`,
    });
  });

  it("under the REST API names the path asked for, cut at 200 characters", () => {
    expect(noOperation("/api/public/buyer/v1/ordrs")).toEqual({
      status: 404,
      code: "not_found",
      detail: `No operation has the path /api/public/buyer/v1/ordrs; the API reference is at ${DOCS_PATH}`,
      headers: { link: HELP_LINK },
    });
    const long = `/api/${"x".repeat(10_000)}`;
    const { detail } = noOperation(long);
    expect(detail).toContain(`${long.slice(0, 200)}…;`);
    expect(detail.length).toBeLessThan(300);
  });
});
