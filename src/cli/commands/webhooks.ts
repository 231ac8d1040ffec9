import type { Command } from "commander";
import { DomainError } from "../../domain/errors.js";
import { addBuyerListCommand, findBuyer } from "../buyer-records.js";
import { CliError, requireUuid, withDatabase } from "../context.js";
import { formatTimestamp } from "../table.js";

/** The domain's field problems, in the options' names. */
function cliProblem(error: unknown): never {
  if (error instanceof DomainError && error.fieldErrors) {
    const option = (path: (string | number)[]) =>
      path[0] === "url"
        ? "--url"
        : path[0] === "enabledEvents"
          ? `--events (item ${Number(path[1] ?? 0) + 1})`
          : "--description";
    throw new CliError(
      error.fieldErrors.map((problem) => `${option(problem.path)} ${problem.message}`).join("\n"),
    );
  }
  throw error;
}

export function registerWebhooks(program: Command): void {
  const webhooks = program
    .command("webhooks")
    .description("list, create and disable a buyer's webhook endpoints; re-encrypt signing secrets");

  addBuyerListCommand(webhooks, {
    description: "list a buyer's webhook endpoints (never their secrets)",
    plural: "webhook endpoints",
    findMany: (prisma, query) => prisma.webhookEndpoint.findMany(query),
    headers: ["id", "url", "events", "status", "created"],
    cells: (row) => [
      row.id,
      row.url,
      row.enabledEvents.join(","),
      row.status === "disabled" ? `disabled (${row.disabledReason ?? "requested"})` : row.status,
      formatTimestamp(row.createdAt),
    ],
  });

  webhooks
    .command("create")
    .description("add a webhook endpoint for a buyer; its signing secret is printed once, as the last line")
    .requiredOption("--buyer <id>", "the buyer's id")
    .requiredOption("--url <url>", "an https URL on the public internet")
    .option("--events <types>", "comma-separated event types, or * for all", "*")
    .option("--description <text>", "a note, such as the system receiving the events")
    .action(async (options: { buyer: string; url: string; events: string; description?: string }) => {
      // A refused id is told before the database opens.
      requireUuid(options.buyer, "--buyer");
      await withDatabase(async (database, config) => {
        const { createWebhookEndpoints } = await import("../../services/webhook-endpoints.js");
        const buyer = await findBuyer(database, options.buyer);
        const enabledEvents = options.events.split(",");
        const input = { url: options.url, enabledEvents, description: options.description ?? null };
        const endpoints = createWebhookEndpoints(database.prisma, config.webhooks);
        const { endpointId, secret } = await endpoints.create(buyer.id, input, []).catch(cliProblem);
        process.stdout.write(
          `Created webhook endpoint ${endpointId} for ${buyer.name}.\n` +
            "Give this signing secret to the receiver now; it cannot be shown again.\n" +
            `${secret}\n`,
        );
      });
    });

  webhooks
    .command("disable")
    .description("stop deliveries to a webhook endpoint (the buyer can enable it again)")
    .argument("<endpoint-id>", "the endpoint's id, as `webhooks list` shows it")
    .action(async (endpointId: string) => {
      const id = requireUuid(endpointId, "the endpoint id");
      await withDatabase(async (database, config) => {
        const { createWebhookEndpoints } = await import("../../services/webhook-endpoints.js");
        const endpoint = await createWebhookEndpoints(database.prisma, config.webhooks).disable(id);
        if (!endpoint) throw new CliError(`no webhook endpoint with id ${endpointId}`);
        process.stdout.write(
          endpoint.alreadyDisabled
            ? `Webhook endpoint ${id} was already disabled.\n`
            : `Disabled webhook endpoint ${id} (${endpoint.url}).\n`,
        );
      });
    });

  webhooks
    .command("reencrypt-secrets")
    .description(
      "re-encrypt every signing secret with the current WEBHOOK_SECRET_KEY (after a key rotation; " +
        "the old key must still be in WEBHOOK_SECRET_KEY_PREVIOUS)",
    )
    .action(async () => {
      await withDatabase(async (database, config) => {
        const { createWebhookEndpoints } = await import("../../services/webhook-endpoints.js");
        const endpoints = createWebhookEndpoints(database.prisma, config.webhooks);
        const { changed, total } = await endpoints.reencryptSecrets();
        process.stdout.write(
          `Re-encrypted the secrets of ${changed} of ${total} webhook endpoints with the current key.\n`,
        );
      });
    });
}
