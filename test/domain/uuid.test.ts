// Which ids are UUIDs: anything else is refused before the database sees it.
import { describe, expect, it } from "vitest";
import { isUuid } from "../../src/domain/uuid.js";

describe("isUuid", () => {
  it.each([
    "0000de30-0005-4000-8000-000000000001",
    "6F9619FF-8B86-D011-B42D-00C04FC964FF",
    "00000000-0000-0000-0000-000000000000",
  ])("accepts %s", (id) => {
    expect(isUuid(id)).toBe(true);
  });

  it.each([
    "",
    "0000de30000540008000000000000001",
    "{0000de30-0005-4000-8000-000000000001}",
    " 0000de30-0005-4000-8000-000000000001",
    "0000de30-0005-4000-8000-00000000000g",
    "0000de30-0005-4000-8000-0000000000011",
    "0000de30-0005-4000-8000-000000000001\n",
  ])("refuses %j", (id) => {
    expect(isUuid(id)).toBe(false);
  });
});
