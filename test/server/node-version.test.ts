// The server refuses to start on a Node.js older than package.json's
// engines.node, saying which it needs and how npm scripts get it.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { unsupportedNode } from "../../src/server/node-version.js";

const required = (
  JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    engines: { node: string };
  }
).engines.node;
const [major = 0, minor = 0, patch = 0] = (/(\d+)\.(\d+)\.(\d+)/.exec(required)?.slice(1) ?? []).map(Number);

describe("the Node.js version check", () => {
  it("accepts the required version and any later one", () => {
    expect(unsupportedNode(`${major}.${minor}.${patch}`)).toBeNull();
    expect(unsupportedNode(`${major}.${minor}.${patch + 1}`)).toBeNull();
    expect(unsupportedNode(`${major}.${minor + 1}.0`)).toBeNull();
    expect(unsupportedNode(`${major + 1}.0.0`)).toBeNull();
    expect(unsupportedNode(process.versions.node)).toBeNull();
  });

  it("refuses an older one, naming the requirement and the pinned runtime npm scripts use", () => {
    const refusal = unsupportedNode("20.19.0");
    expect(refusal).toContain(`needs Node.js ${required}`);
    expect(refusal).toContain("this is Node.js v20.19.0");
    expect(refusal).toContain("node_modules/.bin");
    if (patch > 0) expect(unsupportedNode(`${major}.${minor}.${patch - 1}`)).not.toBeNull();
    if (minor > 0) expect(unsupportedNode(`${major}.${minor - 1}.99`)).not.toBeNull();
  });
});
