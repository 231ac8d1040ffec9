import type { IncomingMessage, RequestListener, ServerResponse } from "node:http";
import type { Viewer } from "../../src/auth/viewer.js";
import { API_PREFIX } from "../../src/contract/route.js";
import type { Database } from "../../src/db/database.js";
import type { Prisma } from "../../src/db/generated/prisma/client.js";
import type { ApprovalStatus, OrderStatus } from "../../src/db/generated/prisma/enums.js";
import { contractSpelling } from "../../src/domain/contract-vocabulary.js";
import { listParameter } from "../../src/rest/query-parameters.js";
import { createAuthenticator } from "./authenticator.js";

/**
 * Peer (b): what a developer writes by hand for the two list endpoints, with
 * Prisma and no GraphQL. Same key lookup as the gateway, one `findMany` with
 * every relation included (join strategy), rows mapped to the contract's
 * JSON. It validates only what the benchmark sends; it is a yardstick, not
 * a second implementation of the contract.
 */
export function createPrismaListener(options: { database: Database; appBaseUrl: string }): RequestListener {
  const { prisma } = options.database;
  const authenticator = createAuthenticator(prisma, (error) => console.error(error));

  const handlers: Record<string, (viewer: Viewer, query: URLSearchParams) => Promise<Page>> = {
    [`${API_PREFIX}/orders`]: (viewer, query) => listOrders(options, viewer, query),
    [`${API_PREFIX}/buyer_product_approvals`]: (viewer, query) => listApprovals(options, viewer, query),
  };

  return (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", `http://${request.headers.host ?? "localhost"}`);
    if (url.pathname === "/healthz") return send(response, 200, '{"status":"ok"}');
    const handler = request.method === "GET" ? handlers[url.pathname] : undefined;
    if (!handler) return send(response, 404, '{"status":404}');
    const key = request.headers["x-api-key"];
    authenticator
      .authenticate(typeof key === "string" ? key : null)
      .then(async (viewer) => {
        if (!viewer) return send(response, 401, '{"status":401}');
        const page = await handler(viewer, url.searchParams);
        if ("invalid" in page)
          return send(response, 422, JSON.stringify({ status: 422, detail: page.invalid }));
        const headers: Record<string, string> = {};
        if (page.nextCursor) {
          url.searchParams.set("cursor", page.nextCursor);
          headers.link = `<${url.toString()}>; rel="next"`;
        }
        send(response, 200, JSON.stringify(page.items), headers);
      })
      .catch((error: unknown) => {
        console.error(error);
        send(response, 500, '{"status":500}');
      });
  };
}

type Page = { items: unknown[]; nextCursor: string | null } | { invalid: string };

function send(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  response.writeHead(status, { "content-type": "application/json; charset=utf-8", ...headers }).end(body);
}

interface PageArgs {
  take: number;
  after: { createdAt: Date; id: string } | null;
}

function readPage(query: URLSearchParams): PageArgs | null {
  const limit = Number(query.get("limit") ?? "100");
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) return null;
  const cursor = query.get("cursor");
  if (cursor === null) return { take: limit, after: null };
  const [time, id] = Buffer.from(cursor, "base64url").toString("utf8").split("|");
  if (!time || !id) return null;
  return { take: limit, after: { createdAt: new Date(time), id } };
}

function afterWhere(after: PageArgs["after"]) {
  return after
    ? { OR: [{ createdAt: { lt: after.createdAt } }, { createdAt: after.createdAt, id: { lt: after.id } }] }
    : {};
}

const cursorOf = (row: { createdAt: Date; id: string }) =>
  Buffer.from(`${row.createdAt.toISOString()}|${row.id}`, "utf8").toString("base64url");

const NEWEST_FIRST = [{ createdAt: "desc" as const }, { id: "desc" as const }];
const ONE_DAY_MS = 86_400_000;

function toPage<Row extends { createdAt: Date; id: string }>(
  rows: Row[],
  take: number,
  map: (row: Row) => unknown,
): Page {
  const items = rows.slice(0, take);
  const last = items.at(-1);
  return { items: items.map(map), nextCursor: rows.length > take && last ? cursorOf(last) : null };
}

// Prisma's Decimal prints itself exactly; Number() then gives the JSON number
// the gateway's Decimal scalar writes.
const decimal = (value: Prisma.Decimal) => Number(value.toString());

async function listOrders(
  { database, appBaseUrl }: { database: Database; appBaseUrl: string },
  viewer: Viewer,
  query: URLSearchParams,
): Promise<Page> {
  const page = readPage(query);
  if (!page) return { invalid: "bad limit or cursor" };
  const from = query.get("created_at_from");
  const to = query.get("created_at_to");
  const statuses = listParameter(query, "order_status") as OrderStatus[] | undefined;
  const rows = await database.prisma.order.findMany({
    relationLoadStrategy: "join",
    where: {
      buyerId: viewer.buyerId,
      ...(statuses ? { orderStatus: { in: statuses } } : {}),
      ...(from || to
        ? {
            createdAt: {
              ...(from ? { gte: new Date(`${from}T00:00:00Z`) } : {}),
              ...(to ? { lt: new Date(new Date(`${to}T00:00:00Z`).getTime() + ONE_DAY_MS) } : {}),
            },
          }
        : {}),
      AND: [afterWhere(page.after)],
    },
    orderBy: NEWEST_FIRST,
    take: page.take + 1,
    include: {
      orderType: true,
      resourceValues: { orderBy: { position: "asc" } },
      supplier: { include: { connections: { where: { buyerId: viewer.buyerId }, take: 1 } } },
      approval: { include: { buyerProduct: true } },
      deliverySite: true,
    },
  });
  return toPage(rows, page.take, (order) => ({
    id: order.id,
    url: `${appBaseUrl}/orders/${order.id}`,
    supplier_profile_id: order.supplierId,
    buyer_product_approval_id: order.buyerProductApprovalId,
    price_type: contractSpelling(order.priceType),
    quantity: decimal(order.quantity),
    price_per_uom: decimal(order.pricePerUom),
    tax_amount: decimal(order.taxAmount),
    tax_percentage: decimal(order.taxPercentage),
    price_total: decimal(order.priceTotal),
    currency: order.currency,
    profile_connection_relationship: order.supplier.connections[0]?.relationship ?? null,
    order_reference: order.orderReference,
    order_status: contractSpelling(order.orderStatus),
    purchase_order_reference: order.purchaseOrderReference,
    supplier_order_reference: order.supplierOrderReference,
    order_type: { id: order.orderType.id, type_of: order.orderType.typeOf },
    resource_values: order.resourceValues.map((item) => ({ provider: item.provider, value: item.value })),
    tracking_type: order.trackingType,
    additional_data: {
      product: { buyer_product_display_name: order.approval.buyerProduct.rawMaterialName },
      supplier: { supplier_name: order.supplier.name },
    },
    placed_at: order.placedAt?.toISOString() ?? null,
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
    delivery_site: {
      id: order.deliverySite.id,
      site_name: order.deliverySite.siteName,
      address: {
        street: order.deliverySite.addressStreet,
        city: order.deliverySite.addressCity,
        state: order.deliverySite.addressState,
        postcode: order.deliverySite.addressPostcode,
        country: order.deliverySite.addressCountry,
        full_address: order.deliverySite.addressFullAddress,
      },
    },
  }));
}

async function listApprovals(
  { database }: { database: Database },
  viewer: Viewer,
  query: URLSearchParams,
): Promise<Page> {
  const page = readPage(query);
  if (!page) return { invalid: "bad limit or cursor" };
  const statuses = listParameter(query, "approval_status") as ApprovalStatus[] | undefined;
  const buyerProductId = query.get("buyer_product_id");
  const rows = await database.prisma.buyerProductApproval.findMany({
    where: {
      buyerId: viewer.buyerId,
      ...(statuses ? { approvalStatus: { in: statuses } } : {}),
      ...(buyerProductId ? { buyerProductId } : {}),
      AND: [afterWhere(page.after)],
    },
    orderBy: NEWEST_FIRST,
    take: page.take + 1,
  });
  return toPage(rows, page.take, (approval) => ({
    id: approval.id,
    approval_status: contractSpelling(approval.approvalStatus),
    supplier_name: approval.supplierName,
    catalogue_parent_display_name: approval.catalogueParentDisplayName,
    catalogue_parent_product_code: approval.catalogueParentProductCode,
    reference: approval.reference,
    buyer_product_id: approval.buyerProductId,
    supplier_profile_id: approval.supplierId,
    created_at: approval.createdAt.toISOString(),
    updated_at: approval.updatedAt.toISOString(),
  }));
}
