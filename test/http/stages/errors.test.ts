// What a request gets when something fails unexpectedly, and how a client that
// hung up is counted.
import { describe, expect, it } from "vitest";
import { CLIENT_CLOSED_REQUEST, unexpectedErrors } from "../../../src/http/stages/errors.js";
import { exchangeFor, stubNext } from "./exchange.js";

describe("the unexpected-errors stage", () => {
  it("answers 500 with the request id and nothing of the error, and logs the error", async () => {
    const logged: { error: unknown; requestId: string }[] = [];
    const stage = unexpectedErrors((error, requestId) => logged.push({ error, requestId }));
    const exchange = exchangeFor("/api/other", { headers: { "x-request-id": "r-500" } });
    const failure = new Error("connection refused: postgres://secret@db");
    const response = await stage(
      exchange,
      stubNext(() => {
        throw failure;
      }),
    );
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toMatchObject({ code: "internal", request_id: "r-500" });
    expect(text).not.toContain("secret");
    expect(logged).toEqual([{ error: failure, requestId: "r-500" }]);
    expect(exchange.recordedStatus).toBe(500);
  });

  it("records 499 and logs nothing when the client hung up first", async () => {
    const logged: unknown[] = [];
    const stage = unexpectedErrors((error) => logged.push(error));
    const hangUp = new AbortController();
    const exchange = exchangeFor("/api/other", { signal: hangUp.signal });
    hangUp.abort();
    const response = await stage(
      exchange,
      stubNext(() => {
        throw new Error("aborted");
      }),
    );
    expect(response.status).toBe(500);
    expect(exchange.recordedStatus).toBe(CLIENT_CLOSED_REQUEST);
    expect(logged).toEqual([]);
  });

  it("lets every answer through as it is", async () => {
    const exchange = exchangeFor("/api/other");
    const response = await unexpectedErrors(() => {})(
      exchange,
      stubNext(() => new Response(null, { status: 418 })),
    );
    expect(response.status).toBe(418);
    expect(exchange.recordedStatus).toBeNull();
  });
});
