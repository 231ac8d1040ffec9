import type { Command } from "commander";
import { issueApiKey, revokeApiKey } from "../../services/api-keys.js";
import { addBuyerListCommand, findBuyer } from "../buyer-records.js";
import { CliError, requireUuid, withDatabase } from "../context.js";
import { formatTimestamp } from "../table.js";

export function registerKeys(program: Command): void {
  const keys = program.command("keys").description("issue, list and revoke a buyer's API keys");

  keys
    .command("create")
    .description("issue an API key for a buyer; the key is printed once, as the last line, and never again")
    .requiredOption("--buyer <id>", "the buyer's id")
    .option("--name <name>", "a label to tell the key apart, such as the integration using it")
    .action(async (options: { buyer: string; name?: string }) => {
      const name = options.name?.trim() || null;
      if (name !== null && name.length > 255) throw new CliError("--name must be at most 255 characters");
      // A refused id is told before the database opens.
      requireUuid(options.buyer, "--buyer");
      await withDatabase(async (database) => {
        const buyer = await findBuyer(database, options.buyer);
        const created = await issueApiKey(database.prisma, buyer.id, name);
        process.stdout.write(
          `Created API key ${created.id} (${created.prefix}...) for ${buyer.name}.\n` +
            "Store it now: only its hash is kept, so it cannot be shown again.\n" +
            `${created.key}\n`,
        );
      });
    });

  addBuyerListCommand(keys, {
    description: "list a buyer's API keys (never the keys themselves)",
    plural: "API keys",
    findMany: (prisma, query) => prisma.apiKey.findMany(query),
    headers: ["id", "prefix", "name", "created", "last used", "revoked"],
    cells: (key) => [
      key.id,
      key.prefix,
      key.name ?? "-",
      formatTimestamp(key.createdAt),
      key.lastUsedAt ? formatTimestamp(key.lastUsedAt) : "never",
      formatTimestamp(key.revokedAt),
    ],
  });

  keys
    .command("revoke")
    .description("revoke an API key: requests with it are refused from now on")
    .argument("<key-id>", "the key's id, as `keys list` shows it")
    .action(async (keyId: string) => {
      const id = requireUuid(keyId, "the key id");
      await withDatabase(async (database) => {
        const revocation = await revokeApiKey(database.prisma, id);
        if (!revocation) throw new CliError(`no API key with id ${keyId}`);
        const { key, alreadyRevoked } = revocation;
        process.stdout.write(
          alreadyRevoked
            ? `API key ${key.id} (${key.prefix}...) was already revoked at ${formatTimestamp(key.revokedAt)}.\n`
            : `Revoked API key ${key.id} (${key.prefix}...) at ${formatTimestamp(key.revokedAt)}.\n`,
        );
      });
    });
}
