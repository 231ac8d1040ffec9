// A record in its REST shape, for events: rendered by the same GraphQL
// operation as the REST single read of its resource (`GET /orders/{id}`, …),
// so that the shape has one definition. Supplier users and taggings have no
// single read; their events show them as `POST /suppliers/{id}/users` and
// `POST /taggings` answer, through these render-only operations.
import type { GraphQLSchema } from "graphql";
import type { RestRoute } from "../contract/route.js";
import { BUYER_PRODUCT_FIELDS, SUPPLIER_USER_FIELDS, TAGGING_FIELDS } from "../contract/routes.js";
import type { GraphQLContext } from "../schema/context.js";
import { type CompiledRoute, compileRoute } from "./compiled-route.js";
import { applyEnumPlan } from "./rest-spelling.js";
import { withSharedResponsePaths } from "./shared-paths.js";

export interface RecordToRender {
  /** As the change log names it: order, buyer_product, buyer_product_approval, supplier_user, tagging. */
  recordType: string;
  /** For a tagging, the tagged record. */
  recordId: string;
  changedAt: Date;
}

/** Render-only operations: no REST path serves them; they are compiled and checked as routes are. */
const RENDER_ONLY: RestRoute[] = [
  {
    // GET /buyer_products/{id} and the `auto_match` that POST /buyer_products answered.
    operationId: "renderCreatedBuyerProduct",
    method: "GET",
    path: "/render/buyer_products/{id}",
    document: `query RenderCreatedBuyerProduct($id: UUID!) {
      buyerProduct(id: $id) { ${BUYER_PRODUCT_FIELDS} autoMatch { matched strategy score } } }`,
    pathParameters: { id: { example: "" } },
    success: { description: "" },
    summary: "",
    tag: "",
    description: "",
  },
  {
    operationId: "renderSupplierUser",
    method: "GET",
    path: "/render/supplier_users/{id}",
    document: `query RenderSupplierUser($id: UUID!) { supplierUser(id: $id) { ${SUPPLIER_USER_FIELDS} } }`,
    pathParameters: { id: { example: "" } },
    success: { description: "" },
    summary: "",
    tag: "",
    description: "",
  },
  {
    operationId: "renderTagging",
    method: "GET",
    path: "/render/taggings/{id}",
    document: `query RenderTagging($id: UUID!, $attachedAt: DateTime) {
      taggedRecord(taggableId: $id, attachedAt: $attachedAt) {
        ${TAGGING_FIELDS}
      }
    }`,
    pathParameters: { id: { example: "" } },
    success: { description: "" },
    summary: "",
    tag: "",
    description: "",
  },
];

const OPERATION_FOR_RECORD: Record<string, string> = {
  order: "getOrder",
  buyer_product: "renderCreatedBuyerProduct",
  buyer_product_approval: "getBuyerProductApproval",
  supplier_user: "renderSupplierUser",
  tagging: "renderTagging",
};

export type RecordRenderer = (
  context: GraphQLContext,
  record: RecordToRender,
) => Promise<Record<string, unknown> | null>;

export function createRecordRenderer(schema: GraphQLSchema, routes: readonly RestRoute[]): RecordRenderer {
  const restSchema = withSharedResponsePaths(schema);
  const compiled = new Map<string, CompiledRoute>();
  for (const route of [...routes, ...RENDER_ONLY]) {
    if (Object.values(OPERATION_FOR_RECORD).includes(route.operationId))
      compiled.set(route.operationId, compileRoute(restSchema, route));
  }
  for (const operationId of Object.values(OPERATION_FOR_RECORD)) {
    if (!compiled.has(operationId)) throw new Error(`no route ${operationId} to render events with`);
  }
  return async (context, record) => {
    const operationId = OPERATION_FOR_RECORD[record.recordType];
    const entry = operationId ? compiled.get(operationId) : undefined;
    if (!entry) return null;
    const variables: Record<string, unknown> = { id: record.recordId };
    if (record.recordType === "tagging") variables.attachedAt = record.changedAt.toISOString();
    const result = await entry.execute(context, variables);
    const [error] = result.errors ?? [];
    if (error || !result.data) throw error?.originalError ?? error ?? new Error("no data");
    applyEnumPlan(result.data, entry.enumPlan);
    const body = entry.responseBody(result.data)?.body;
    if (typeof body !== "object" || body === null) return null;
    // As the REST answer's JSON: date-times as text, amounts as numbers (events are stored as jsonb).
    return JSON.parse(JSON.stringify(body)) as Record<string, unknown>;
  };
}
