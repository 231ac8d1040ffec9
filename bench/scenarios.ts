import { createHash } from "node:crypto";
import { API_PREFIX, routes } from "../src/contract/routes.js";
import { DASHBOARD_REQUESTS, type DashboardRequest } from "./dashboard.js";
import { POSTGRAPHILE_DASHBOARD_REQUESTS } from "./peers/postgraphile-dashboard.js";
import { POSTGRAPHILE_ORDERS_DOCUMENT } from "./peers/postgraphile-peer.js";
import { SOFA_BASE_PATH } from "./peers/sofa-base-path.js";

/** How a target is spoken to: the v1 contract, POST /graphql, or SOFA's generated routes. */
export type Protocol = "rest" | "graphql" | "sofa";

export type ScenarioId =
  | "list-orders"
  | "list-orders-filtered"
  | "list-approvals"
  | "update-order"
  | "create-buyer-product"
  | "list-orders-revalidated"
  | "list-orders-compressed"
  | "list-orders-many-pages"
  | "orders-sorted-placed"
  | "orders-sorted-price-last"
  | "orders-search-supplier"
  | "orders-search-reference"
  | "dashboard"
  | `dashboard-${string}`
  | "graphql-typename";

export type Method = "GET" | "POST" | "PATCH";

/** What a scenario sends; `build(n)` gives the n-th request, so writes can differ every time. */
export interface RequestPlan {
  method: Method;
  headers: Record<string, string>;
  build(n: number): { path: string; body?: string };
  /** Run before each measurement (e.g. to read the current ETag into `headers`). */
  refresh?(port: number): Promise<void>;
  /** 304 Not Modified is the answer sought, counted with the 2xx. */
  notModifiedCounts?: boolean;
  /** Concurrent connections when not the run's `--connections`. */
  connections?: number;
  /** Measured seconds per round at least, whatever the run's `--seconds`. */
  minSeconds?: number;
  /** A persisted GraphQL request's twin sending its document in full, which the gateway plans alike. */
  inFull?: RequestPlan;
  /** Requests 0 to variants − 1 are different documents in turn, each checked before the run. */
  variants?: number;
}

export interface ScenarioContext {
  apiKey: string;
  /** Orders of the measured buyer; PATCH cycles through them. */
  orderIds: string[];
  /** Differs per run, so that created names never repeat across runs on a kept database. */
  runTag: string;
}

export interface Scenario {
  id: ScenarioId;
  label: string;
  /** Reads; peer (b) serves only these. */
  read: boolean;
  /** The only targets that run it, when not all. */
  only?: string[];
  plan(protocol: Protocol, context: ScenarioContext): RequestPlan;
}

// Two statuses of eight over six months of the two years of data: a full page
// of 100 still matches, from about a sixteenth of the buyer's orders.
export const ORDER_FILTER = {
  from: "2025-04-01",
  to: "2025-09-30",
  statuses: ["order_placed", "in_transit"],
} as const;

const PAGE = 100;

function documentOf(operationId: string): string {
  const route = routes.find((candidate) => candidate.operationId === operationId);
  if (!route) throw new Error(`no REST route ${operationId}`);
  return route.document;
}

const restPath = (path: string) => `${API_PREFIX}${path}`;
const json = (value: unknown) => JSON.stringify(value);

function headers(context: ScenarioContext, withBody: boolean): Record<string, string> {
  return withBody
    ? { "x-api-key": context.apiKey, "content-type": "application/json" }
    : { "x-api-key": context.apiKey };
}

function fixed(method: Method, context: ScenarioContext, path: string, body?: string): RequestPlan {
  return { method, headers: headers(context, body !== undefined), build: () => ({ path, body }) };
}

function graphql(
  context: ScenarioContext,
  operationId: string,
  variables: (n: number) => unknown,
): RequestPlan {
  const query = documentOf(operationId);
  return {
    method: "POST",
    headers: headers(context, true),
    build: (n) => ({ path: "/graphql", body: json({ query, variables: variables(n) }) }),
  };
}

/**
 * A read as a client with persisted documents sends it: the document's
 * sha256 alone (automatic persisted queries). Before each measurement the
 * document is sent once with its hash, which registers it in the process.
 */
function persistedGraphql(
  context: ScenarioContext,
  operationId: string,
  variables: () => unknown,
): RequestPlan {
  const query = documentOf(operationId);
  const extensions = {
    persistedQuery: { version: 1, sha256Hash: createHash("sha256").update(query).digest("hex") },
  };
  const plan: RequestPlan = {
    method: "POST",
    headers: headers(context, true),
    build: () => ({ path: "/graphql", body: json({ variables: variables(), extensions }) }),
    async refresh(port) {
      const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
        method: "POST",
        headers: plan.headers,
        body: json({ query, variables: variables(), extensions }),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`registering ${operationId} answered ${response.status}`);
    },
    inFull: graphql(context, operationId, () => variables()),
  };
  return plan;
}

/** A mix of GraphQL documents sent in full, one after the other; the n-th reads the n-th order of the buyer. */
function graphqlMix(context: ScenarioContext, requests: DashboardRequest[]): RequestPlan {
  if (requests.length === 0) throw new Error("a mix of no documents");
  return {
    method: "POST",
    headers: headers(context, true),
    variants: requests.length,
    build: (n) => {
      const request = requests[n % requests.length] as DashboardRequest;
      const orderId = context.orderIds[n % context.orderIds.length] ?? "";
      return {
        path: "/graphql",
        body: json({
          query: request.query,
          operationName: request.name,
          variables: request.variables(n, orderId),
        }),
      };
    },
  };
}

/** GraphQL spells enum values in upper case: order_placed → ORDER_PLACED. */
const graphqlEnum = (value: string) => value.toUpperCase();

function listOrders(filtered: boolean): Scenario["plan"] {
  const restQuery = filtered
    ? `?limit=${PAGE}&created_at_from=${ORDER_FILTER.from}&created_at_to=${ORDER_FILTER.to}` +
      ORDER_FILTER.statuses.map((status) => `&order_status%5B%5D=${status}`).join("")
    : `?limit=${PAGE}`;
  const filter = filtered
    ? {
        createdAtFrom: ORDER_FILTER.from,
        createdAtTo: ORDER_FILTER.to,
        orderStatus: ORDER_FILTER.statuses.map(graphqlEnum),
      }
    : undefined;
  return (protocol, context) => {
    switch (protocol) {
      case "rest":
        return fixed("GET", context, restPath(`/orders${restQuery}`));
      case "graphql":
        return persistedGraphql(context, "listOrders", () => ({ first: PAGE, filter }));
      case "sofa": {
        const sofaFilter = filter ? `&filter=${encodeURIComponent(json(filter))}` : "";
        return fixed("GET", context, `${SOFA_BASE_PATH}/orders?first=${PAGE}${sofaFilter}`);
      }
    }
  };
}

/**
 * A product name no catalogue product resembles: letters from a hash, so
 * trigram matching finds nothing close. No common word either: thousands of
 * names sharing "Bench " made every later creation's similarity search read
 * more candidates, so whichever server ran later in a round paid more.
 */
export function uniqueProductName(runTag: string, n: number): string {
  const letters = createHash("md5")
    .update(`${runTag}:${n}`)
    .digest("hex")
    .replace(/[0-9]/g, (digit) => "gklmnprstv"[Number(digit)] ?? "x");
  return `${letters.slice(0, 10)} ${letters.slice(10, 18)}`;
}

/**
 * GET /orders?limit=100 with the current ETag in If-None-Match: a polling
 * client when nothing changed. The tag is read again before each measurement,
 * since the write scenarios move the buyer's version on.
 */
function revalidatedOrders(context: ScenarioContext): RequestPlan {
  const plan = fixed("GET", context, restPath(`/orders?limit=${PAGE}`));
  return {
    ...plan,
    notModifiedCounts: true,
    async refresh(port) {
      const response = await fetch(`http://127.0.0.1:${port}${restPath(`/orders?limit=${PAGE}`)}`, {
        headers: { "x-api-key": context.apiKey },
      });
      await response.arrayBuffer();
      const etag = response.headers.get("etag");
      if (!etag) throw new Error("GET /orders answered without an ETag");
      plan.headers["if-none-match"] = etag;
    },
  };
}

/**
 * Every page size from 1 to 500 in turn: many distinct URLs, to fill the
 * response cache. Few connections, so that the pages being built at once
 * weigh little beside the cache in the process's peak memory: many pages of
 * up to 500 orders in flight move the peak by more than the cache's bound.
 * Long turns, so that each peak spans many of V8's old-space cycles: the
 * highest of only a few moves by more than the bound from turn to turn.
 */
function manyOrderPages(context: ScenarioContext): RequestPlan {
  return {
    method: "GET",
    headers: headers(context, false),
    connections: 4,
    minSeconds: 30,
    build: (n) => ({ path: restPath(`/orders?limit=${(n % 500) + 1}`) }),
  };
}

export const SCENARIOS: Scenario[] = [
  {
    id: "list-orders",
    label: "GET /orders?limit=100",
    read: true,
    plan: listOrders(false),
  },
  {
    id: "list-orders-filtered",
    label: "GET /orders (dates + 2 statuses)",
    read: true,
    plan: listOrders(true),
  },
  {
    id: "list-approvals",
    label: "GET /buyer_product_approvals",
    read: true,
    plan: (protocol, context) => {
      switch (protocol) {
        case "rest":
          return fixed("GET", context, restPath("/buyer_product_approvals"));
        case "graphql":
          return persistedGraphql(context, "listBuyerProductApprovals", () => ({ first: PAGE }));
        case "sofa":
          return fixed("GET", context, `${SOFA_BASE_PATH}/buyer-product-approvals?first=${PAGE}`);
      }
    },
  },
  {
    id: "list-orders-revalidated",
    label: "GET /orders?limit=100, If-None-Match",
    read: true,
    only: ["rest"],
    plan: (_protocol, context) => revalidatedOrders(context),
  },
  // The same page in brotli, as browsers and most HTTP clients ask for it: the floor sends the
  // gateway's coded bytes, so cached hits compare with it and uncached reads with list-orders.
  {
    id: "list-orders-compressed",
    label: "GET /orders?limit=100, Accept-Encoding: br",
    read: true,
    only: ["floor", "rest", "rest-uncached"],
    plan: (_protocol, context) => ({
      ...fixed("GET", context, restPath(`/orders?limit=${PAGE}`)),
      headers: { ...headers(context, false), "accept-encoding": "br" },
    }),
  },
  {
    id: "list-orders-many-pages",
    label: "GET /orders?limit=1..500 in turn",
    read: true,
    only: ["rest", "rest-uncached"],
    plan: (_protocol, context) => manyOrderPages(context),
  },
  // A dashboard's ad-hoc documents: planned (the normal path), executed (the planner off), and
  // PostGraphile's equivalents over the same data.
  {
    id: "dashboard",
    label: "GraphQL dashboard, 5 ad-hoc documents in turn",
    read: true,
    // The gateway as deployed: its response cache keeps answers of GET only, never of POST /graphql.
    only: ["graphql", "graphql-executed", "postgraphile", "candidate-graphql"],
    plan: (_protocol, context) => graphqlMix(context, DASHBOARD_REQUESTS),
  },
  {
    id: "update-order",
    label: "PATCH /orders/{id}",
    read: false,
    plan: (protocol, context) => {
      const orderId = (n: number) => context.orderIds[n % context.orderIds.length] ?? "";
      const reference = (n: number) => `PO-bench-${context.runTag}-${n}`;
      switch (protocol) {
        case "rest":
          return {
            method: "PATCH",
            headers: headers(context, true),
            build: (n) => ({
              path: restPath(`/orders/${orderId(n)}`),
              body: json({ purchase_order_reference: reference(n) }),
            }),
          };
        case "graphql":
          return graphql(context, "updateOrder", (n) => ({
            id: orderId(n),
            input: { purchaseOrderReference: reference(n) },
          }));
        case "sofa":
          return {
            method: "POST",
            headers: headers(context, true),
            build: (n) => ({
              path: `${SOFA_BASE_PATH}/update-order`,
              body: json({ id: orderId(n), input: { purchaseOrderReference: reference(n) } }),
            }),
          };
      }
    },
  },
  {
    id: "create-buyer-product",
    label: "POST /buyer_products",
    read: false,
    plan: (protocol, context) => {
      const name = (n: number) => uniqueProductName(context.runTag, n);
      const input = (n: number) => ({
        rawMaterialName: name(n),
        measurementUnit: "KG",
        productType: "RAW_MATERIAL",
      });
      switch (protocol) {
        case "rest":
          return {
            method: "POST",
            headers: headers(context, true),
            build: (n) => ({
              path: restPath("/buyer_products"),
              body: json({
                raw_material_name: name(n),
                measurement_unit: "kg",
                product_type: "Raw Material",
              }),
            }),
          };
        case "graphql":
          return graphql(context, "createBuyerProduct", (n) => ({ input: input(n) }));
        case "sofa":
          return {
            method: "POST",
            headers: headers(context, true),
            build: (n) => ({
              path: `${SOFA_BASE_PATH}/create-buyer-product`,
              body: json({ input: input(n) }),
            }),
          };
      }
    },
  },
];

/** The dashboard's mix without the documents not named, by name. */
const onlyDocuments = (requests: DashboardRequest[], names: string[]) =>
  requests.filter((request) => names.includes(request.name));

/**
 * One scenario per document of the dashboard's mix, sent alone (the same
 * variables as in the mix): where the mix's time goes. Run only when named
 * in --scenarios, e.g. `--scenarios dashboard,dashboard-OrderDetail`.
 */
export const DASHBOARD_DOCUMENT_SCENARIOS: Scenario[] = DASHBOARD_REQUESTS.map((request) => ({
  id: `dashboard-${request.name}`,
  label: `GraphQL dashboard document ${request.name} alone`,
  read: true,
  only: ["graphql", "graphql-executed", "postgraphile", "candidate-graphql"],
  plan: (_protocol, context) => graphqlMix(context, onlyDocuments(DASHBOARD_REQUESTS, [request.name])),
}));

/**
 * `{ __typename }` with its admission: what a GraphQL request costs the
 * gateway before it reads anything, the floor under the dashboard's
 * documents. Run only when named in --scenarios.
 */
const GRAPHQL_FLOOR_SCENARIO: Scenario = {
  id: "graphql-typename",
  label: "GraphQL { __typename } with its admission",
  read: true,
  only: ["graphql", "candidate-graphql"],
  plan: (_protocol, context) =>
    graphqlMix(context, [
      { name: "Typename", query: "query Typename { __typename }", variables: () => ({}) },
    ]),
};

const isDashboardScenario = (scenario: Scenario) =>
  scenario.id === "dashboard" || scenario.id.startsWith("dashboard-");

/** Every scenario --scenarios accepts: SCENARIOS, which a run measures by default, and those run only when named. */
export const NAMED_SCENARIOS: Scenario[] = [
  ...SCENARIOS,
  ...DASHBOARD_DOCUMENT_SCENARIOS,
  GRAPHQL_FLOOR_SCENARIO,
];

/** The server processes a run can start. */
export type ProcessId =
  | "gateway"
  | "gateway-uncached"
  | "gateway-executed"
  | "gateway-traced"
  | "candidate"
  | "floor"
  | "prisma"
  | "sofa"
  | "postgraphile";

export interface Target {
  id: string;
  label: string;
  process: ProcessId;
  protocol: Protocol;
  /** False: the change log's triggers are disabled while this target is measured. */
  changeLog?: false;
  supports(scenario: Scenario): boolean;
  /** What it is sent, when not the scenario's plan for its protocol (a peer with a schema of its own). */
  plan?(scenario: Scenario, context: ScenarioContext): RequestPlan;
}

const always = () => true;

/** Whether a run measures this scenario on this target. */
export function runsOn(target: Target, scenario: Scenario): boolean {
  return target.supports(scenario) && (!scenario.only || scenario.only.includes(target.id));
}

/** What a target is sent for a scenario. */
export function planOf(target: Target, scenario: Scenario, context: ScenarioContext): RequestPlan {
  return target.plan ? target.plan(scenario, context) : scenario.plan(target.protocol, context);
}

export const TARGETS: Target[] = [
  // The floor bounds what a read could reach; replaying a write's answer would add nothing.
  {
    id: "floor",
    label: "(a) floor: bytes from memory",
    process: "floor",
    protocol: "rest",
    supports: (scenario) => scenario.read,
  },
  { id: "rest", label: "gateway REST", process: "gateway", protocol: "rest", supports: always },
  {
    id: "rest-uncached",
    label: "gateway REST, no response cache",
    process: "gateway-uncached",
    protocol: "rest",
    supports: always,
  },
  // The same process with the change log's triggers disabled while it is measured (so no events
  // either): the log's cost on writes, paired round by round with rest-uncached.
  {
    id: "rest-unlogged",
    label: "gateway REST, no cache, no change log",
    process: "gateway-uncached",
    protocol: "rest",
    changeLog: false,
    supports: (scenario) => !scenario.read,
  },
  { id: "graphql", label: "gateway GraphQL", process: "gateway", protocol: "graphql", supports: always },
  {
    id: "graphql-uncached",
    label: "gateway GraphQL, no response cache",
    process: "gateway-uncached",
    protocol: "graphql",
    supports: always,
  },
  // The same GraphQL requests with their documents in full, planned on first sight like a
  // persisted one: what a client without a manifest pays.
  {
    id: "graphql-full",
    label: "gateway GraphQL, no response cache, documents sent in full",
    process: "gateway-uncached",
    protocol: "graphql",
    supports: (scenario) => scenario.id === "list-orders",
    plan: (scenario, context) => {
      // Without its twin the target would measure the persisted request and compare it with itself.
      const { inFull } = scenario.plan("graphql", context);
      if (!inFull) throw new Error(`${scenario.id} has no GraphQL request to send in full`);
      return inFull;
    },
  },
  // The same documents on a gateway whose GraphQL planner is off (GRAPHQL_PLANNED_READS=false): what planning saves.
  {
    id: "graphql-executed",
    label: "gateway GraphQL, no response cache, every query executed",
    process: "gateway-executed",
    protocol: "graphql",
    supports: isDashboardScenario,
  },
  // Every request traced and its spans exported over OTLP/HTTP to a local sink (opt-in: --targets rest,rest-traced).
  {
    id: "rest-traced",
    label: "gateway REST, tracing on",
    process: "gateway-traced",
    protocol: "rest",
    supports: always,
  },
  {
    id: "prisma",
    label: "(b) node:http + Prisma",
    process: "prisma",
    protocol: "rest",
    supports: (scenario) => scenario.read,
  },
  { id: "sofa", label: "(c) SOFA on Yoga", process: "sofa", protocol: "sofa", supports: always },
  // PostGraphile's schema is its own, generated from the tables: its documents are written for it.
  {
    id: "postgraphile",
    label: "(d) PostGraphile v5",
    process: "postgraphile",
    protocol: "graphql",
    supports: (scenario) => scenario.id === "list-orders" || isDashboardScenario(scenario),
    plan: (scenario, context) =>
      scenario.id === "dashboard"
        ? graphqlMix(context, POSTGRAPHILE_DASHBOARD_REQUESTS)
        : isDashboardScenario(scenario)
          ? graphqlMix(
              context,
              onlyDocuments(POSTGRAPHILE_DASHBOARD_REQUESTS, [scenario.id.slice("dashboard-".length)]),
            )
          : {
              method: "POST",
              headers: headers(context, true),
              build: () => ({
                path: "/graphql",
                body: json({ query: POSTGRAPHILE_ORDERS_DOCUMENT, variables: { first: PAGE } }),
              }),
            },
  },
  {
    id: "candidate",
    label: "candidate REST, no response cache",
    process: "candidate",
    protocol: "rest",
    supports: always,
  },
  {
    id: "candidate-graphql",
    label: "candidate GraphQL",
    process: "candidate",
    protocol: "graphql",
    supports: always,
  },
];

const LIST_DOCUMENT = `query Orders($first: Int, $last: Int, $sortKey: OrderSortKeys!, $reverse: Boolean!, $query: String) {
  orders(first: $first, last: $last, sortKey: $sortKey, reverse: $reverse, query: $query) {
    nodes { id orderReference purchaseOrderReference orderStatus placedAt priceTotal supplier { name } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

/**
 * The sorted and searched GraphQL order lists, measured by the scale step
 * only: `supplierOf` gives each caller a supplier of its own to search for.
 */
export function sortedListScenarios(supplierOf: (context: ScenarioContext) => string): Scenario[] {
  const post = (context: ScenarioContext, variables: Record<string, unknown>): RequestPlan => ({
    method: "POST",
    headers: headers(context, true),
    build: () => ({ path: "/graphql", body: json({ query: LIST_DOCUMENT, variables }) }),
  });
  return [
    {
      id: "orders-sorted-placed",
      label: "GraphQL orders(sortKey: PLACED_AT, reverse: true, first: 100)",
      read: true,
      plan: (_protocol, context) => post(context, { first: PAGE, sortKey: "PLACED_AT", reverse: true }),
    },
    {
      id: "orders-sorted-price-last",
      label: "GraphQL orders(sortKey: PRICE_TOTAL, last: 100)",
      read: true,
      plan: (_protocol, context) => post(context, { last: PAGE, sortKey: "PRICE_TOTAL", reverse: false }),
    },
    {
      id: "orders-search-supplier",
      label: 'GraphQL orders(query: "supplier:<id> status:order_placed,in_transit", first: 100)',
      read: true,
      plan: (_protocol, context) =>
        post(context, {
          first: PAGE,
          sortKey: "CREATED_AT",
          reverse: false,
          query: `supplier:${supplierOf(context)} status:order_placed,in_transit`,
        }),
    },
    {
      id: "orders-search-reference",
      label: 'GraphQL orders(query: "reference:PO-12345*", first: 100)',
      read: true,
      plan: (_protocol, context) =>
        post(context, { first: PAGE, sortKey: "CREATED_AT", reverse: false, query: "reference:PO-12345*" }),
    },
  ];
}
