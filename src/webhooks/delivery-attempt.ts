// One attempt of a claimed delivery: the body, the signatures, the HTTP
// request, and the write of its outcome.
import { isSuccess } from "../services/webhook-attempt-record.js";
import type { ClaimedDelivery } from "../services/webhook-claim.js";
import { cancelDelivery } from "../services/webhook-queue.js";
import type { OutcomeWriter } from "./outcome-writer.js";
import type { SecretCache } from "./secret-cache.js";
import type { WebhookSender } from "./send.js";
import type { WebhookWorkerOptions } from "./worker-state.js";

/**
 * The JSON body integrators receive, the same as `GET /events/{id}`. `data` is
 * the stored JSON text, placed as it is: its object is byte for byte what the
 * REST read answered when the event was rendered.
 */
export function eventBody(event: { id: string; type: string; createdAt: Date; data: string }): string {
  const head = JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt.toISOString() });
  return `${head.slice(0, -1)},"data":${event.data}}`;
}

/** What every attempt of one worker shares. */
export interface AttemptServices {
  sender: WebhookSender;
  secrets: SecretCache;
  outcomes: OutcomeWriter;
}

/**
 * One attempt of a claimed delivery, signed with every secret of its endpoint,
 * and its outcome written; true when the write also claimed work in its place.
 */
export async function attemptDelivery(
  options: WebhookWorkerOptions,
  { sender, secrets, outcomes }: AttemptServices,
  claim: ClaimedDelivery,
): Promise<boolean> {
  const { logger, tracing, observeAttempt } = options;
  const { endpoint, event } = claim;
  if (endpoint.status === "disabled") {
    await cancelDelivery(options.database.prisma, claim, "the endpoint is disabled");
    return false;
  }
  const message = { id: event.id, body: eventBody(event), secrets: secrets.signing(endpoint, Date.now()) };
  const send = () => sender.send(endpoint.url, message);
  const outcome = tracing
    ? await tracing.traceWebhookDelivery(
        {
          deliveryId: claim.id,
          eventId: event.id,
          eventType: event.type,
          endpointId: endpoint.id,
          host: new URL(endpoint.url).host,
        },
        send,
      )
    : await send();
  observeAttempt?.(isSuccess(outcome) ? "delivered" : "failed", outcome.durationMs / 1000);
  const { recorded, claimedInItsPlace } = await outcomes.write(claim, outcome);
  if (recorded === "lease lost") {
    logger.warn({ deliveryId: claim.id }, "webhook delivery lease ran out before its attempt was written");
  } else if (recorded === "delivery gone") {
    logger.debug(
      { deliveryId: claim.id },
      "webhook delivery deleted with its endpoint or event during its attempt",
    );
  }
  return claimedInItsPlace;
}
