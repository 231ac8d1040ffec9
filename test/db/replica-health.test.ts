// The pieces of a replica's health that an operator reads: WAL positions
// compared as PostgreSQL orders them (how far behind a replica is, or whether
// it has gone past the primary), and a failure's reason on one short line.
import { describe, expect, it } from "vitest";
import { oneLine, walPositionOf } from "../../src/db/replica-health.js";

describe("a WAL position", () => {
  it("orders as PostgreSQL orders positions, its high part first", () => {
    const positions = ["0/3000148", "16/B374D848", "0/FFFFFFFF", "1/0", "0/16B3748"];
    const sorted = [...positions].sort((a, b) => (walPositionOf(a) < walPositionOf(b) ? -1 : 1));
    expect(sorted).toEqual(["0/16B3748", "0/3000148", "0/FFFFFFFF", "1/0", "16/B374D848"]);
  });

  it("is the byte it names: 1/0 is one past 0/FFFFFFFF", () => {
    expect(walPositionOf("1/0") - walPositionOf("0/FFFFFFFF")).toBe(1n);
    expect(walPositionOf("16/B374D848")).toBe(0x16b374d848n);
  });
});

describe("a replica's reason", () => {
  it("is an error's first line, at most 200 characters", () => {
    expect(oneLine(new Error("connect ECONNREFUSED 10.0.0.7:5432\n    at TCPConnectWrap"))).toBe(
      "connect ECONNREFUSED 10.0.0.7:5432",
    );
    expect(oneLine(new Error("x".repeat(500)))).toHaveLength(200);
  });

  it("says there was no answer when there is nothing else to say", () => {
    expect(oneLine(null)).toBe("no answer");
    expect(oneLine(new Error(""))).toBe("no answer");
    expect(oneLine("timeout")).toBe("timeout");
  });
});
