// A buyer's webhook endpoints, from creation to deletion, for the GraphQL
// schema (and the REST routes that run it) and the operators' CLI alike: the
// checks of src/domain/webhook-endpoints.ts, the URL's DNS check, the signing
// secrets and their keys, and the writes.
import { randomUUID } from "node:crypto";
import type { WebhookConfig } from "../config.js";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import { DomainError, notFound, validationFailed } from "../domain/errors.js";
import { checkEndpointFields, type UrlCheck } from "../domain/webhook-endpoints.js";
import { endpointReceives } from "../domain/webhook-events.js";
import {
  decryptSecret,
  encryptedWithCurrentKey,
  encryptSecret,
  generateSigningSecret,
  PREVIOUS_SECRET_OVERLAP_MS,
} from "../domain/webhook-secrets.js";
import { queueDeliveries } from "./webhook-queue.js";
import { checkWebhookUrl } from "./webhook-url-check.js";

/** The URL policy, and the keys that encrypt signing secrets. */
export type WebhookEndpointSettings = Pick<
  WebhookConfig,
  "allowHttp" | "allowPrivateNetworks" | "secretKeys"
>;

/** Where field problems are reported: `["input"]` for the APIs, `[]` for the CLI's options. */
type Path = (string | number)[];

export interface NewEndpoint {
  url: string;
  enabledEvents: readonly string[];
  description?: string | null;
}

export interface EndpointChanges {
  url?: string | null;
  enabledEvents?: readonly string[] | null;
  description?: string | null;
  status?: "enabled" | "failing" | "disabled" | null;
}

/** An endpoint's id and its signing secret, which is shown only once. */
export interface EndpointSecret {
  endpointId: string;
  secret: string;
}

export interface WebhookEndpoints {
  /** Checks and creates one of the buyer's endpoints with a new signing secret; VALIDATION_FAILED. */
  create(buyerId: string, input: NewEndpoint, base: Path): Promise<EndpointSecret>;
  /** Checks and changes one of the buyer's endpoints; returns its id. NOT_FOUND, VALIDATION_FAILED. */
  update(buyerId: string, id: string, changes: EndpointChanges, base: Path): Promise<string>;
  /** Deletes one of the buyer's endpoints and its deliveries; returns its id. NOT_FOUND. */
  delete(buyerId: string, id: string): Promise<string>;
  /** A new signing secret; the previous one keeps signing for a while. NOT_FOUND. */
  rotateSecret(buyerId: string, id: string): Promise<EndpointSecret>;
  /** Queues one of the buyer's events again; returns the new deliveries' ids. NOT_FOUND, ENDPOINT_DISABLED. */
  redeliver(buyerId: string, eventId: string, endpointId: string | null): Promise<string[]>;
  /** An operator disables any buyer's endpoint; null when there is none with this id. */
  disable(id: string): Promise<{ url: string; alreadyDisabled: boolean } | null>;
  /** Re-encrypts every stored secret not under the current key; how many endpoints changed, of all. */
  reencryptSecrets(): Promise<{ changed: number; total: number }>;
}

/**
 * The service on a client of the caller's choosing: the request's (a REST
 * write runs in a transaction of its own), or the CLI's.
 */
export type WebhookEndpointsOn = (prisma: PrismaClient) => WebhookEndpoints;

export function webhookEndpointsWith(settings: WebhookEndpointSettings): WebhookEndpointsOn {
  return (prisma) => createWebhookEndpoints(prisma, settings);
}

export function createWebhookEndpoints(
  prisma: PrismaClient,
  settings: WebhookEndpointSettings,
): WebhookEndpoints {
  const store: Store = { prisma, settings, checkUrl: (url) => checkWebhookUrl(url, settings) };
  return {
    create: (buyerId, input, base) => createEndpoint(store, buyerId, input, base),
    update: (buyerId, id, changes, base) => updateEndpoint(store, buyerId, id, changes, base),
    delete: async (buyerId, id) => {
      const endpoint = await ownEndpoint(prisma, buyerId, id);
      await prisma.webhookEndpoint.delete({ where: { id: endpoint.id } });
      return endpoint.id;
    },
    rotateSecret: (buyerId, id) => rotateSecret(store, buyerId, id),
    redeliver: (buyerId, eventId, endpointId) => redeliver(prisma, buyerId, eventId, endpointId),
    disable: (id) => disableEndpoint(prisma, id),
    reencryptSecrets: () => reencryptSecrets(prisma, settings.secretKeys),
  };
}

interface Store {
  prisma: PrismaClient;
  settings: WebhookEndpointSettings;
  checkUrl: UrlCheck;
}

/** The buyer's endpoint, or NOT_FOUND (another buyer's endpoint does not exist for this one). */
async function ownEndpoint(prisma: PrismaClient, buyerId: string, id: string) {
  const endpoint = await prisma.webhookEndpoint.findFirst({ where: { id, buyerId } });
  if (!endpoint) throw notFound("Webhook endpoint");
  return endpoint;
}

async function createEndpoint(
  { prisma, settings, checkUrl }: Store,
  buyerId: string,
  input: NewEndpoint,
  base: Path,
): Promise<EndpointSecret> {
  const fields = await checkEndpointFields(input, checkUrl, { required: true, base });
  const id = randomUUID();
  const secret = generateSigningSecret();
  await prisma.webhookEndpoint.create({
    data: {
      id,
      buyerId,
      url: fields.url ?? "",
      enabledEvents: fields.enabledEvents ?? [],
      description: fields.description ?? null,
      secretCiphertext: encryptSecret(secret, id, settings.secretKeys),
    },
  });
  return { endpointId: id, secret };
}

async function updateEndpoint(
  { prisma, checkUrl }: Store,
  buyerId: string,
  id: string,
  changes: EndpointChanges,
  base: Path,
): Promise<string> {
  const endpoint = await ownEndpoint(prisma, buyerId, id);
  const { url, enabledEvents, description } = changes;
  const fields = await checkEndpointFields({ url, enabledEvents, description }, checkUrl, {
    required: false,
    base,
  });
  // FAILING is set by deliveries only.
  if (changes.status === "failing") {
    throw validationFailed([
      { path: [...base, "status"], code: "invalid", message: "must be enabled or disabled" },
    ]);
  }
  const status =
    changes.status === "enabled"
      ? { status: "enabled" as const, failingSince: null, disabledAt: null, disabledReason: null }
      : changes.status === "disabled" && endpoint.status !== "disabled"
        ? requestedDisable()
        : {};
  await prisma.webhookEndpoint.update({ where: { id: endpoint.id }, data: { ...fields, ...status } });
  return endpoint.id;
}

async function rotateSecret(
  { prisma, settings }: Store,
  buyerId: string,
  id: string,
): Promise<EndpointSecret> {
  const endpoint = await ownEndpoint(prisma, buyerId, id);
  const secret = generateSigningSecret();
  await prisma.webhookEndpoint.update({
    where: { id: endpoint.id },
    data: {
      secretCiphertext: encryptSecret(secret, endpoint.id, settings.secretKeys),
      previousSecretCiphertext: endpoint.secretCiphertext,
      previousSecretExpiresAt: new Date(Date.now() + PREVIOUS_SECRET_OVERLAP_MS),
    },
  });
  return { endpointId: endpoint.id, secret };
}

async function redeliver(
  prisma: PrismaClient,
  buyerId: string,
  eventId: string,
  endpointId: string | null,
): Promise<string[]> {
  const event = await prisma.webhookEvent.findFirst({ where: { id: eventId, buyerId } });
  if (!event) throw notFound("Event");
  let endpointIds: string[];
  if (endpointId) {
    const endpoint = await ownEndpoint(prisma, buyerId, endpointId);
    if (endpoint.status === "disabled") {
      throw new DomainError(
        "ENDPOINT_DISABLED",
        "The webhook endpoint is disabled; enable it (status enabled) before redelivering to it",
      );
    }
    endpointIds = [endpoint.id];
  } else {
    const endpoints = await prisma.webhookEndpoint.findMany({
      where: { buyerId, status: { not: "disabled" } },
      select: { id: true, enabledEvents: true },
    });
    endpointIds = endpoints
      .filter((endpoint) => endpointReceives(endpoint.enabledEvents, event.type))
      .map((endpoint) => endpoint.id);
  }
  return prisma.$transaction((tx) => queueDeliveries(tx, { buyerId, eventId: event.id, endpointIds }));
}

async function disableEndpoint(prisma: PrismaClient, id: string) {
  const endpoint = await prisma.webhookEndpoint.findUnique({ where: { id } });
  if (!endpoint) return null;
  if (endpoint.status === "disabled") return { url: endpoint.url, alreadyDisabled: true };
  await prisma.webhookEndpoint.update({ where: { id }, data: requestedDisable() });
  return { url: endpoint.url, alreadyDisabled: false };
}

function requestedDisable() {
  return { status: "disabled" as const, disabledAt: new Date(), disabledReason: "requested" };
}

async function reencryptSecrets(
  prisma: PrismaClient,
  keys: WebhookEndpointSettings["secretKeys"],
): Promise<{ changed: number; total: number }> {
  const rows = await prisma.webhookEndpoint.findMany({
    select: { id: true, secretCiphertext: true, previousSecretCiphertext: true },
  });
  let changed = 0;
  for (const row of rows) {
    const reencrypt = (stored: string | null) =>
      stored === null || encryptedWithCurrentKey(stored, keys)
        ? stored
        : encryptSecret(decryptSecret(stored, row.id, keys), row.id, keys);
    const secretCiphertext = reencrypt(row.secretCiphertext) ?? row.secretCiphertext;
    const previousSecretCiphertext = reencrypt(row.previousSecretCiphertext);
    if (
      secretCiphertext === row.secretCiphertext &&
      previousSecretCiphertext === row.previousSecretCiphertext
    )
      continue;
    await prisma.webhookEndpoint.update({
      where: { id: row.id },
      data: { secretCiphertext, previousSecretCiphertext },
    });
    changed += 1;
  }
  return { changed, total: rows.length };
}
