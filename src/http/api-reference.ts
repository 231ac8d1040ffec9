import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { methodNotAllowed, problemResponse } from "./problem.js";

export const DOCS_PATH = "/docs";
const BUNDLE_PREFIX = `${DOCS_PATH}/redoc.standalone.`;
const INIT_PATH = `${DOCS_PATH}/init.js`;
/** For a URL that names its content: it never changes, so browsers keep it without asking again. */
const IMMUTABLE = "public, max-age=31536000, immutable";

// The standalone bundle shows Redocly's logo from their CDN in the sidebar
// footer. The reference must load nothing from the internet, so the logo
// becomes an empty inline image (the link beside it stays).
const REDOCLY_LOGO = '"https://cdn.redoc.ly/redoc/logo-mini.svg"';
const EMPTY_IMAGE = "\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E\"";

// Everything the page uses comes from this server; styles are inline because
// Redoc injects them at runtime, and its search index runs in a blob: worker.
const DOCS_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const SYSTEM_FONTS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';
const MONOSPACE_FONTS = 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace';

function page(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Buyer Public API v1 reference</title>
<link rel="icon" href="data:,">
<style>body { margin: 0; }</style>
</head>
<body>
<div id="redoc"></div>
<script src="${bundlePath()}"></script>
<script src="${INIT_PATH}"></script>
</body>
</html>
`;
}

function initScript(documentPath: string): string {
  const options = {
    requiredPropsFirst: true,
    expandResponses: "200,201",
    jsonSampleExpandLevel: 3,
    theme: {
      typography: {
        fontFamily: SYSTEM_FONTS,
        headings: { fontFamily: SYSTEM_FONTS },
        code: { fontFamily: MONOSPACE_FONTS },
      },
    },
  };
  return `fetch(${JSON.stringify(documentPath)})
  .then((response) => response.json())
  .then((spec) => Redoc.init(spec, ${JSON.stringify(options)}, document.getElementById("redoc")));
`;
}

let bundle: string | undefined;
function redocBundle(): string {
  if (bundle === undefined) {
    const file = createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js");
    bundle = readFileSync(file, "utf8").replaceAll(REDOCLY_LOGO, EMPTY_IMAGE);
  }
  return bundle;
}

let hashedBundlePath: string | undefined;
/** The bundle's URL carries a hash of its bytes, so a new Redoc gets a new URL. */
function bundlePath(): string {
  hashedBundlePath ??= `${BUNDLE_PREFIX}${createHash("sha256").update(redocBundle()).digest("hex").slice(0, 12)}.js`;
  return hashedBundlePath;
}

export type ApiReference = (request: Request, url: URL, requestId: string) => Response | null;

/** Every path the reference serves, for the router. */
export function apiReferencePaths(documentPath: string): string[] {
  return [documentPath, DOCS_PATH, `${DOCS_PATH}/`, INIT_PATH, bundlePath()];
}

/**
 * Serves the OpenAPI document and the Redoc reference rendered from it, all
 * without an API key; null for any other path.
 */
export function createApiReference(options: { documentPath: string; documentJson: string }): ApiReference {
  const documents: Record<string, () => Response> = {
    [options.documentPath]: () =>
      new Response(options.documentJson, {
        headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-cache" },
      }),
    [DOCS_PATH]: () =>
      new Response(page(), {
        headers: {
          "content-type": "text/html; charset=utf-8",
          "content-security-policy": DOCS_CSP,
          "cache-control": "no-cache",
        },
      }),
    [INIT_PATH]: () =>
      new Response(initScript(options.documentPath), {
        headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "no-cache" },
      }),
  };
  const bundleResponse = () =>
    new Response(redocBundle(), {
      headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": IMMUTABLE },
    });

  return (request, url, requestId) => {
    // A bookmark or a typed URL often ends in a slash.
    if (url.pathname === `${DOCS_PATH}/`) {
      return (
        onlyGet(request, requestId) ?? new Response(null, { status: 308, headers: { location: DOCS_PATH } })
      );
    }
    const serve =
      documents[url.pathname] ??
      (url.pathname.startsWith(BUNDLE_PREFIX) && url.pathname === bundlePath() ? bundleResponse : undefined);
    if (!serve) return null;
    return onlyGet(request, requestId) ?? serve();
  };
}

/** 405 for anything but GET and HEAD on a page or document; null when the method is fine. */
export function onlyGet(request: Request, requestId: string): Response | null {
  if (request.method === "GET" || request.method === "HEAD") return null;
  return problemResponse(methodNotAllowed(request.method, ["GET", "HEAD"]), requestId);
}
