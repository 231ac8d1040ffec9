// The rules for a webhook endpoint, whoever sets it (REST, GraphQL, the CLI):
// every problem reported at once, under the input's path.
import { describe, expect, it } from "vitest";
import { DomainError, type FieldProblem } from "../../src/domain/errors.js";
import { checkEndpointFields, MAX_WEBHOOK_DESCRIPTION_LENGTH } from "../../src/domain/webhook-endpoints.js";
import { MAX_WEBHOOK_URL_LENGTH } from "../../src/domain/webhook-url.js";

const PUBLIC_URL = "https://hooks.example.com/orders";
const acceptAll = async () => null;
const create = { required: true, base: ["input"] };
const update = { required: false, base: ["input"] };

async function problems(...args: Parameters<typeof checkEndpointFields>): Promise<FieldProblem[]> {
  try {
    await checkEndpointFields(...args);
  } catch (error) {
    if (error instanceof DomainError && error.code === "VALIDATION_FAILED") return error.fieldErrors ?? [];
    throw error;
  }
  return [];
}

describe("webhook endpoint fields", () => {
  it("a create needs a URL and events; both missing are said at once", async () => {
    expect(await problems({}, acceptAll, create)).toEqual([
      { path: ["input", "url"], code: "required", message: "is required" },
      expect.objectContaining({ path: ["input", "enabledEvents"], code: "required" }),
    ]);
  });

  it("an update changes only what it names", async () => {
    expect(await checkEndpointFields({ description: "ERP" }, acceptAll, update)).toEqual({
      description: "ERP",
    });
  });

  it("trims the URL and events, and keeps a description cleared to null", async () => {
    expect(
      await checkEndpointFields(
        { url: ` ${PUBLIC_URL} `, enabledEvents: [" order.created "], description: null },
        acceptAll,
        create,
      ),
    ).toEqual({ url: PUBLIC_URL, enabledEvents: ["order.created"], description: null });
  });

  it("names each event that is unknown, repeated, or beside *", async () => {
    const found = await problems(
      { url: PUBLIC_URL, enabledEvents: ["order.created", "order.deleted", "order.created", "*"] },
      acceptAll,
      create,
    );
    expect(found.map(({ path, code }) => [path.join("."), code])).toEqual([
      ["input.enabledEvents.1", "invalid"],
      ["input.enabledEvents.2", "duplicate"],
      ["input.enabledEvents.3", "invalid"],
    ]);
    expect(found[0]?.message).toContain("order.updated");
  });

  it("refuses an empty list of events, and takes * alone", async () => {
    expect((await problems({ url: PUBLIC_URL, enabledEvents: [] }, acceptAll, create))[0]?.code).toBe(
      "required",
    );
    expect(await problems({ url: PUBLIC_URL, enabledEvents: ["*"] }, acceptAll, create)).toEqual([]);
  });

  it("says a URL is too long without looking it up, and reports what the lookup finds wrong", async () => {
    const lookedUp: string[] = [];
    const check = async (url: string) => {
      lookedUp.push(url);
      return "must not point at a private or reserved address";
    };
    const tooLong = `https://example.com/${"a".repeat(MAX_WEBHOOK_URL_LENGTH)}`;
    expect(await problems({ url: tooLong }, check, update)).toEqual([
      expect.objectContaining({ path: ["input", "url"], code: "too_long" }),
    ]);
    expect(lookedUp).toEqual([]);
    expect(await problems({ url: "https://10.0.0.1/" }, check, update)).toEqual([
      { path: ["input", "url"], code: "invalid", message: "must not point at a private or reserved address" },
    ]);
  });

  it("limits the description's length", async () => {
    const description = "d".repeat(MAX_WEBHOOK_DESCRIPTION_LENGTH + 1);
    expect((await problems({ description }, acceptAll, update))[0]?.code).toBe("too_long");
  });
});
