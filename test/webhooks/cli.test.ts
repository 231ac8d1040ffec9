// Operators manage webhook endpoints with the real CLI, in a child process.
import { describe, expect, it } from "vitest";
import { databaseForChildProcesses } from "../support/child-process-database.js";
import { runCli } from "../support/cli-process.js";

// Seven CLI processes, each opening the database: minutes on a loaded machine.
const SLOW = 300_000;

describe("buyer-api webhooks", () => {
  const shared = databaseForChildProcesses("buyer-api-webhooks-cli-");
  const cli = (...args: string[]) => runCli(shared.url, ...args);

  it(
    "creates, lists and disables an endpoint; the secret is printed once and refused URLs say why",
    async () => {
      const buyer = await cli("buyers", "create", "--name", "Hooked Buyer");
      expect(buyer.code).toBe(0);
      const buyerId = /([0-9a-f-]{36})/.exec(buyer.stdout)?.[1] ?? "";

      const refused = await cli("webhooks", "create", "--buyer", buyerId, "--url", "https://192.168.0.10/x");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("--url must not point at a private or reserved address");

      const created = await cli(
        "webhooks",
        "create",
        "--buyer",
        buyerId,
        "--url",
        "https://93.184.215.14/hooks",
        "--events",
        "order.created,order.updated",
      );
      expect(created.code).toBe(0);
      const lines = created.stdout.trim().split("\n");
      expect(lines.at(-1)).toMatch(/^whsec_/);
      const endpointId = /endpoint ([0-9a-f-]{36})/.exec(created.stdout)?.[1] ?? "";

      const listed = await cli("webhooks", "list", "--buyer", buyerId);
      expect(listed.stdout).toContain("https://93.184.215.14/hooks");
      expect(listed.stdout).toContain("order.created,order.updated");
      expect(listed.stdout).not.toContain("whsec_");

      const disabled = await cli("webhooks", "disable", endpointId);
      expect(disabled.code).toBe(0);
      expect((await cli("webhooks", "list", "--buyer", buyerId)).stdout).toContain("disabled (requested)");

      const reencrypted = await cli("webhooks", "reencrypt-secrets");
      expect(reencrypted.stdout).toContain("0 of 1");
    },
    SLOW,
  );
});
