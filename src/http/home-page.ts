import { createHash } from "node:crypto";
import { DOCS_PATH, onlyGet } from "./api-reference.js";

export const HOME_PATH = "/";

export interface HomePageOptions {
  /** Where the OpenAPI document is served. */
  documentPath: string;
  /** Whether GET /graphql shows GraphiQL. */
  graphiql: boolean;
  /** Set by `buyer-api demo --serve` only: the demo buyer's key, shown on the page. */
  demoApiKey?: string;
}

const STYLE = `body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; max-width: 44rem; margin: 3rem auto; padding: 0 1rem; color: #1a1a1a; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
pre { background: #f3f3f3; padding: .75rem; overflow-x: auto; }
li { margin: .25rem 0; }`;

// The one inline style is allowed by its hash; nothing else may load or run.
const CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash("sha256").update(STYLE).digest("base64")}'`,
  "img-src data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[character] ?? character,
  );
}

function page(options: HomePageOptions, origin: string): string {
  const links = [
    `<li><a href="${DOCS_PATH}">API reference</a>: every REST operation, with curl and TypeScript samples</li>`,
    ...(options.graphiql
      ? ['<li><a href="/graphql">GraphQL console</a> (GraphiQL): the same data through GraphQL</li>']
      : []),
    `<li><a href="${escapeHtml(options.documentPath)}">OpenAPI document</a>: for generating a typed client</li>`,
    '<li><a href="/healthz">Health</a> and <a href="/readyz">readiness</a></li>',
  ];
  const key = options.demoApiKey
    ? `<h2>Demo key</h2>
<p>This server runs the demo (<code>buyer-api demo --serve</code>). Its buyer's API key, already filled in in the GraphQL console:</p>
<pre>${escapeHtml(options.demoApiKey)}</pre>
<p>Try it:</p>
<pre>curl -sS -H 'X-API-KEY: ${escapeHtml(options.demoApiKey)}' '${escapeHtml(origin)}/api/public/buyer/v1/orders?limit=5'</pre>`
    : `<h2>API key</h2>
<p>Every request to the API sends your organisation's key in the <code>X-API-KEY</code> header. An operator issues one with <code>buyer-api keys create --buyer &lt;buyer id&gt;</code>.</p>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Buyer Public API</title>
<link rel="icon" href="data:,">
<style>${STYLE}</style>
</head>
<body>
<h1>Buyer Public API</h1>
<p>The v1 REST API is under <code>/api/public/buyer/v1</code>; GraphQL is at <code>/graphql</code>.</p>
<ul>
${links.join("\n")}
</ul>
${key}
</body>
</html>
`;
}

/** GET /: a page linking the reference, the GraphQL console, the OpenAPI document and health; in the demo, the demo key. */
export function createHomePage(options: HomePageOptions) {
  return (request: Request, url: URL, requestId: string): Response =>
    onlyGet(request, requestId) ??
    new Response(page(options, url.origin), {
      headers: {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": CSP,
        // The demo key is the demo's to show, but no page with a key belongs in a shared cache.
        "cache-control": options.demoApiKey ? "no-store" : "no-cache",
      },
    });
}
