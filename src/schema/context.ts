import type { Viewer } from "../auth/viewer.js";
import type { PrismaClient } from "../db/generated/prisma/client.js";
import type { ReadChoice } from "../db/replicas.js";

export type { ReadChoice, ReadPosition } from "../db/replicas.js";

import type { OrderPrecondition } from "../domain/order-update.js";
import type { OrderUpdateFeed } from "../services/order-notifications.js";
import type { WebhookEndpointsOn } from "../services/webhook-endpoints.js";

/** A REST write's precondition (If-Match), and the data version its transaction produced, for the new ETag. */
export interface WriteCondition {
  precondition: OrderPrecondition | null;
  /** Set by the mutation once it has written. */
  producedVersion: bigint | null;
}

/** What every resolver sees, for GraphQL and REST alike. */
export interface GraphQLContext {
  /** The primary: mutations and subscriptions; a query's resolvers get its reader's client here instead. */
  prisma: PrismaClient;
  /** Where the request's reads run: the primary's read pool or a replica that has the buyer's version. */
  reads?: ReadChoice;
  /** Null when the request carried no valid API key. */
  viewer: Viewer | null;
  requestId: string;
  /** Base of the web application's links (`Order.url`). */
  appBaseUrl: string;
  /** Order changes made by any server process, for the `orderUpdated` subscription. */
  orderUpdates: OrderUpdateFeed;
  /** Set by the REST adapter on writes. */
  write?: WriteCondition;
  /** The webhook endpoints' service, given `prisma`; it holds the URL policy and the signing secrets' keys. */
  webhookEndpoints: WebhookEndpointsOn;
}

/** The Prisma delegate of a model named at run time (`prisma.buyerProductApproval` for `BuyerProductApproval`), as `Delegate`. */
export function modelDelegate<Delegate>(context: GraphQLContext, model: string): Delegate {
  const key = model.charAt(0).toLowerCase() + model.slice(1);
  return (context.prisma as unknown as Record<string, Delegate>)[key] as Delegate;
}
