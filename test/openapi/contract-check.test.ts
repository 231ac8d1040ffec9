// callApi holds every REST response to the OpenAPI document; these show that
// a response the document does not describe really fails the test.
import { describe, expect, it } from "vitest";
import { API_PREFIX } from "../../src/contract/route.js";
import { assertMatchesContract, type ObservedResponse } from "../support/contract.js";

const API = `http://localhost${API_PREFIX}`;

const problemHeaders = () =>
  new Headers({
    "content-type": "application/problem+json",
    "x-request-id": "req-1",
    "ratelimit-limit": "600",
    "ratelimit-remaining": "599",
    "ratelimit-reset": "42",
  });

const notFound = {
  type: "about:blank",
  title: "Not Found",
  status: 404,
  detail: "No such resource",
  code: "not_found",
  request_id: "req-1",
};

function observed(overrides: Partial<ObservedResponse>): ObservedResponse {
  return {
    method: "PATCH",
    url: `${API}/orders/c0ffee00-0000-4000-8000-000000000000`,
    status: 404,
    headers: problemHeaders(),
    text: JSON.stringify(notFound),
    ...overrides,
  };
}

describe("the contract check on REST responses", () => {
  it("passes a response the document describes", () => {
    expect(() => assertMatchesContract(observed({}))).not.toThrow();
  });

  it("fails a status the document does not list for the operation, naming the operation", () => {
    expect(() => assertMatchesContract(observed({ status: 418 }))).toThrow(
      /PATCH \/api\/public\/buyer\/v1\/orders\/c0ffee00.* \(updateOrder\) answered 418, which the OpenAPI document does not list/,
    );
  });

  it("fails a body member the document does not have, a body status not the response's, and a code the status does not document", () => {
    expect(() =>
      assertMatchesContract(observed({ text: JSON.stringify({ ...notFound, stack: "at x" }) })),
    ).toThrow(/must NOT have additional properties "stack"/);
    expect(() =>
      assertMatchesContract(observed({ text: JSON.stringify({ ...notFound, code: "gone" }) })),
    ).toThrow(/\/code must be equal to one of the allowed values/);
    expect(() =>
      assertMatchesContract(observed({ text: JSON.stringify({ ...notFound, status: 410 }) })),
    ).toThrow(/404 wrote the status 410 in its body/);
    // A code of the API this operation never answers with: its problem schema does not admit it.
    expect(() =>
      assertMatchesContract(observed({ text: JSON.stringify({ ...notFound, code: "already_exists" }) })),
    ).toThrow(/\/code must be equal to one of the allowed values/);
    // A code of this operation, but not one it documents for 404.
    expect(() =>
      assertMatchesContract(observed({ text: JSON.stringify({ ...notFound, code: "invalid_transition" }) })),
    ).toThrow(
      /answered the code "invalid_transition", which the OpenAPI document does not list for it \(listed: not_found\)/,
    );
  });

  it("fails a response without a required header, or with the wrong media type", () => {
    const headers = problemHeaders();
    headers.delete("x-request-id");
    expect(() => assertMatchesContract(observed({ headers }))).toThrow(
      /lacks the required header X-Request-Id/,
    );
    const json = problemHeaders();
    json.set("content-type", "application/json");
    expect(() => assertMatchesContract(observed({ headers: json }))).toThrow(
      /the document says application\/problem\+json/,
    );
  });

  it("expects 404 from a path the document does not have and 405 from a method it does not have", () => {
    expect(() => assertMatchesContract(observed({ url: `${API}/nowhere`, status: 200 }))).toThrow(
      /must answer 404/,
    );
    const allow = problemHeaders();
    allow.set("allow", "PATCH, GET, HEAD");
    const methodNotAllowed = {
      ...notFound,
      status: 405,
      title: "Method Not Allowed",
      code: "method_not_allowed",
    };
    expect(() =>
      assertMatchesContract(
        observed({ method: "DELETE", status: 405, headers: allow, text: JSON.stringify(methodNotAllowed) }),
      ),
    ).not.toThrow();
  });
});
