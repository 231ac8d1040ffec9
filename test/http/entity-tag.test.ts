// Entity tags as clients send them back: If-None-Match and If-Match lists,
// weak and strong comparison, and the tags of compressed representations.
import { describe, expect, it } from "vitest";
import {
  codedEntityTag,
  formatEntityTag,
  noneMatchHit,
  parseTagCondition,
  representationHash,
  strongMatch,
  versionOfTag,
} from "../../src/http/entity-tag.js";

const ETAG = formatEntityTag(42n, representationHash(["orders", "page 1"]));
const opaque = ETAG.slice(1, -1);

describe("If-None-Match and If-Match lists", () => {
  it("read `*`, single tags and comma-separated lists of weak and strong tags", () => {
    expect(parseTagCondition(null)).toBeNull();
    expect(parseTagCondition(" * ")).toEqual({ any: true });
    expect(parseTagCondition(`W/"a", "b"`)).toEqual({
      any: false,
      tags: [
        { weak: true, opaque: "a" },
        { weak: false, opaque: "b" },
      ],
    });
  });

  it("match nothing when malformed, never fail", () => {
    for (const header of ["a", `"a`, `"a" "b"`, `"a",,`, `W/ "a"`]) {
      const condition = parseTagCondition(header);
      expect(condition, header).toEqual({ any: false, tags: [] });
      if (condition) expect(noneMatchHit(condition, ETAG)).toBeNull();
    }
  });
});

describe("a tag this service wrote", () => {
  it("carries the version of what the read shows; another server's tag carries none", () => {
    expect(ETAG).toMatch(/^"42-[0-9a-f]{16}"$/);
    expect(versionOfTag({ weak: false, opaque })).toBe(42n);
    expect(versionOfTag({ weak: false, opaque: `${opaque}-br` })).toBe(42n);
    expect(versionOfTag({ weak: false, opaque: "v42" })).toBeNull();
  });

  it("differs when anything that shapes the bytes differs", () => {
    expect(representationHash(["a", "bc"])).not.toBe(representationHash(["ab", "c"]));
    expect(representationHash(["a"])).toBe(representationHash(["a"]));
  });

  it("gets a suffix per content coding, so each coding's bytes have a tag of their own", () => {
    expect(codedEntityTag(ETAG, "br")).toBe(`"${opaque}-br"`);
    expect(codedEntityTag(ETAG, "gzip")).toBe(`"${opaque}-gz"`);
    expect(codedEntityTag(ETAG, "identity")).toBe(ETAG);
    expect(codedEntityTag(`W/${ETAG}`, "br")).toBe(`W/${ETAG}`);
  });
});

describe("comparison", () => {
  it("If-None-Match: weak, in any coding, answering with the tag as the client holds it", () => {
    const held = parseTagCondition(`"other", W/"${opaque}-gz"`);
    if (!held) throw new Error("parsed");
    expect(noneMatchHit(held, ETAG)).toBe(`"${opaque}-gz"`);
    expect(noneMatchHit({ any: true }, ETAG)).toBe(ETAG);
    expect(
      noneMatchHit({ any: false, tags: [{ weak: false, opaque: "43-0000000000000000" }] }, ETAG),
    ).toBeNull();
  });

  it("If-Match: strong only, in any coding", () => {
    expect(strongMatch({ weak: false, opaque }, ETAG)).toBe(true);
    expect(strongMatch({ weak: false, opaque: `${opaque}-br` }, ETAG)).toBe(true);
    expect(strongMatch({ weak: true, opaque }, ETAG)).toBe(false);
    expect(strongMatch({ weak: false, opaque: "41-0000000000000000" }, ETAG)).toBe(false);
  });
});
