// How REST query strings are read: the three spellings of a list mean the
// same, a whole number stays a number, and anything else reaches validation
// as the text the client sent, so the refusal can quote it.
import { describe, expect, it } from "vitest";
import { listParameter, readQueryParameter } from "../../src/rest/query-parameters.js";

const query = (text: string) => new URLSearchParams(text);

describe("a list parameter", () => {
  it("reads name[]=a&name[]=b, name=a,b and a mix of them alike", () => {
    const expected = ["pending", "shipped"];
    expect(listParameter(query("order_status[]=pending&order_status[]=shipped"), "order_status")).toEqual(
      expected,
    );
    expect(listParameter(query("order_status=pending,shipped"), "order_status")).toEqual(expected);
    expect(listParameter(query("order_status[]=pending&order_status=shipped"), "order_status")).toEqual(
      expected,
    );
  });

  it("drops blank entries and spaces around them; all blank is no filter", () => {
    expect(listParameter(query("order_status=%20pending%20,,"), "order_status")).toEqual(["pending"]);
    expect(listParameter(query("order_status=,"), "order_status")).toBeUndefined();
    expect(listParameter(query(""), "order_status")).toBeUndefined();
  });
});

describe("an integer parameter", () => {
  it("is a number when it is a whole number, else the text as sent", () => {
    expect(readQueryParameter(query("per_page=25"), "per_page", "integer")).toBe(25);
    expect(readQueryParameter(query("per_page=2.5"), "per_page", "integer")).toBe("2.5");
    expect(readQueryParameter(query("per_page=-1"), "per_page", "integer")).toBe("-1");
    expect(readQueryParameter(query("per_page=1234567890123456"), "per_page", "integer")).toBe(
      "1234567890123456",
    );
    expect(readQueryParameter(query(""), "per_page", "integer")).toBeNull();
  });
});

describe("a text parameter", () => {
  it("is the text as sent, or null when absent", () => {
    expect(readQueryParameter(query("search=a%2Cb"), "search")).toBe("a,b");
    expect(readQueryParameter(query(""), "search")).toBeNull();
  });
});
