// Problem details (RFC 9457) as every refusal of the REST API writes them: the
// status phrase as title, a code telling the cases apart, the request id, and
// field errors or extra members when there are some.
import { describe, expect, it } from "vitest";
import { PROBLEM_CONTENT_TYPE, problemBody, problemResponse } from "../../src/http/problem.js";

describe("a problem", () => {
  it("names its status's phrase, its code and the request it answers", () => {
    expect(
      JSON.parse(problemBody({ status: 404, code: "not_found", detail: "No order abc" }, "req-1")),
    ).toEqual({
      type: "about:blank",
      title: "Not Found",
      status: 404,
      detail: "No order abc",
      code: "not_found",
      request_id: "req-1",
    });
  });

  it("carries its field errors and extra members", () => {
    const body = JSON.parse(
      problemBody(
        {
          status: 422,
          code: "validation_failed",
          detail: "Invalid fields",
          errors: [{ field: "name", code: "required", message: "is required" }],
          extensions: { allowed_statuses: ["shipped"] },
        },
        "req-2",
      ),
    );
    expect(body).toMatchObject({
      title: "Unprocessable Content",
      errors: [{ field: "name", code: "required", message: "is required" }],
      allowed_statuses: ["shipped"],
    });
  });

  it("is sent as application/problem+json with its status, phrase and headers", async () => {
    const response = problemResponse(
      { status: 429, code: "rate_limited", detail: "Slow down", headers: { "retry-after": "7" } },
      "req-3",
    );
    expect(response.status).toBe(429);
    expect(response.statusText).toBe("Too Many Requests");
    expect(response.headers.get("content-type")).toBe(PROBLEM_CONTENT_TYPE);
    expect(response.headers.get("retry-after")).toBe("7");
    expect(JSON.parse(await response.text())).toMatchObject({ code: "rate_limited", request_id: "req-3" });
  });
});
