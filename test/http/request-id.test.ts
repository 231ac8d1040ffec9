// X-Request-Id: a caller's id is kept when it is a sane token, so that the
// caller's logs and ours name the same request; anything else (empty, too
// long, spaces, quotes, line breaks, non-ASCII) is replaced by a new UUID.
import { describe, expect, it } from "vitest";
import { pickRequestId } from "../../src/http/request-id.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("the request id", () => {
  it.each(["abc-1", "0af7651916cd43dd8448eb211c80319c", "erp.sync:42_retry-3", "x".repeat(128)])(
    "keeps the caller's %s",
    (incoming) => {
      expect(pickRequestId(incoming)).toBe(incoming);
    },
  );

  it.each([
    ["none", null],
    ["an empty one", ""],
    ["one of 129 characters", "x".repeat(129)],
    ["one with a space", "a b"],
    ["one with a quote", 'a"b'],
    ["one with a line break", "a\nb"],
    ["one with a slash", "a/b"],
    ["one outside ASCII", "naïve"],
  ])("makes a new one for %s", (_name, incoming) => {
    expect(pickRequestId(incoming)).toMatch(UUID);
  });

  it("makes a different one each time", () => {
    expect(pickRequestId(null)).not.toBe(pickRequestId(null));
  });
});
