import type { GraphiQLOptions } from "graphql-yoga";

/** Shown in the headers editor: the one header a request needs, with a value to replace. */
export const API_KEY_HEADER_TEMPLATE = JSON.stringify(
  { "X-API-KEY": "bpk_paste_your_api_key_here" },
  null,
  2,
);

/** Shown in the headers editor of the demo (`buyer-api demo --serve`): its key, ready to run. */
export function demoKeyHeaders(apiKey: string): string {
  return JSON.stringify({ "X-API-KEY": apiKey }, null, 2);
}

const HOW_TO_AUTHENTICATE = `# Buyer Public API: put your API key in the
# X-API-KEY header (Headers, below), then run.
# No key yet? An operator issues one with
#   buyer-api keys create --buyer <buyer id>
`;

const DEMO_KEY_FILLED_IN = `# Buyer Public API demo: the demo buyer's key is
# already in the X-API-KEY header (Headers, below): run.
`;

/** The query GraphiQL opens with: it answers something useful for any key. */
export const EXAMPLE_OPERATION = `query RecentOrders {
  viewer {
    buyer { name }
    apiKey { prefix name }
  }
  orders(first: 5) {
    totalCount
    edges {
      node {
        orderReference
        orderStatus
        priceTotal
        currency
        createdAt
        buyerProduct { rawMaterialName }
        supplier { name }
        events(first: 3) {
          edges {
            node { createdAt changes { field from to } }
          }
        }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}
`;

/** With the demo's key, GraphiQL opens ready to run; otherwise it says where a key comes from. */
export function graphiqlOptions(demoApiKey?: string): GraphiQLOptions {
  return {
    title: "Buyer Public API · GraphiQL",
    defaultQuery: `${demoApiKey ? DEMO_KEY_FILLED_IN : HOW_TO_AUTHENTICATE}${EXAMPLE_OPERATION}`,
    headers: demoApiKey ? demoKeyHeaders(demoApiKey) : API_KEY_HEADER_TEMPLATE,
    defaultEditorToolsVisibility: "headers",
    // A key typed into the browser stays in that tab, not in local storage.
    shouldPersistHeaders: false,
    subscriptionsProtocol: "SSE",
  };
}
