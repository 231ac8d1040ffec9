import type { GraphiQLOptions } from "graphql-yoga";

/** Shown in the headers editor: the one header a request needs, with a value to replace. */
export const API_KEY_HEADER_TEMPLATE = JSON.stringify(
  { "X-API-KEY": "bpk_paste_your_api_key_here" },
  null,
  2,
);

/** The query GraphiQL opens with: it answers something useful for any key. */
export const EXAMPLE_QUERY = `# Buyer Public API: put your API key in the
# X-API-KEY header (Headers, below), then run.
query RecentOrders {
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

export function graphiqlOptions(): GraphiQLOptions {
  return {
    title: "Buyer Public API · GraphiQL",
    defaultQuery: EXAMPLE_QUERY,
    headers: API_KEY_HEADER_TEMPLATE,
    defaultEditorToolsVisibility: "headers",
    // A key typed into the browser stays in that tab, not in local storage.
    shouldPersistHeaders: false,
    subscriptionsProtocol: "SSE",
  };
}
