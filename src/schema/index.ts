import { lexicographicSortSchema } from "graphql";
import { builder } from "./builder.js";
import "./types/api-key.js";
import "./types/approval.js";
import "./types/buyer.js";
import "./types/buyer-product.js";
import "./types/match-product.js";
import "./types/node.js";
import "./types/order.js";
import "./types/order-event.js";
import "./types/order-subscription.js";
import "./types/product.js";
import "./types/supplier.js";
import "./types/supplier-user.js";
import "./types/tag.js";
import "./types/webhook-delivery.js";
import "./types/webhook-endpoint.js";
import "./types/webhook-event.js";
import "./types/webhook-mutations.js";
import "./types/links.js";
import "./types/viewer-query.js";

/** The one schema that GraphQL clients and the REST adapter both execute against. */
export const schema = lexicographicSortSchema(builder.toSchema());
