// The events integrators can subscribe to (docs/webhooks.md, "Events").
import type { PrismaClient } from "../db/generated/prisma/client.js";

export const WEBHOOK_EVENT_TYPES = [
  "order.created",
  "order.updated",
  "buyer_product.created",
  "buyer_product_approval.created",
  "buyer_product_approval.updated",
  "supplier_user.created",
  "tagging.created",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** In `enabled_events`, alone: every type, including types added later. */
export const ALL_EVENTS = "*";

export function isWebhookEventType(value: string): value is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(value);
}

/** Whether an endpoint subscribed to `enabledEvents` receives an event of `type`. */
export function endpointReceives(enabledEvents: readonly string[], type: string): boolean {
  return enabledEvents.includes(ALL_EVENTS) || enabledEvents.includes(type);
}

/** Change log entries waiting to be rendered into events (docs/webhooks.md, "Where events come from"). */
export function countUnrenderedChanges(prisma: Pick<PrismaClient, "changeLogUnrendered">): Promise<number> {
  return prisma.changeLogUnrendered.count();
}
