/** A path template and what it leads to: `/api/public/buyer/v1/orders/{id}`, `/healthz`. */
export interface Route<Target> {
  /** Segments in braces (`{id}`) match any one non-empty segment; every other segment matches itself. */
  template: string;
  target: Target;
}

/** What the router made of a request's path. */
export interface RouteMatch<Target> {
  /** The template that matched, as metrics, logs and spans label the request; null when none did. */
  readonly template: string | null;
  readonly target: Target;
  /** The values of the template's `{…}` segments, in its order, as sent (still percent-encoded). */
  readonly params: readonly string[];
}

export interface Router<Target> {
  /** The route `pathname` matches; a template of the same depth with a fixed segment wins over one with a parameter there. */
  match(pathname: string): RouteMatch<Target>;
}

interface Node<Target> {
  readonly fixed: Map<string, Node<Target>>;
  parameter: Node<Target> | null;
  /** The template that ends here; its match is made once when it has no parameters. */
  ends: { template: string; target: Target; fixedMatch: RouteMatch<Target> | null } | null;
}

const NO_PARAMS: readonly string[] = Object.freeze([]);

const newNode = <Target>(): Node<Target> => ({ fixed: new Map(), parameter: null, ends: null });

function isParameter(segment: string): boolean {
  return segment.startsWith("{") && segment.endsWith("}");
}

/**
 * The one router of the service: each request's path is matched once, by
 * segments, against every template (a tree of segments, so the cost does not
 * grow with the number of routes). A path no template matches goes to
 * `unmatched(pathname)`, with no template.
 */
export function createRouter<Target>(
  routes: readonly Route<Target>[],
  unmatched: (pathname: string) => Target,
): Router<Target> {
  const root = newNode<Target>();
  for (const { template, target } of routes) {
    if (!template.startsWith("/")) throw new Error(`route ${template}: a template starts with /`);
    let node = root;
    let parameters = 0;
    for (const segment of template.split("/").slice(1)) {
      if (isParameter(segment)) {
        parameters += 1;
        node.parameter ??= newNode();
        node = node.parameter;
      } else {
        const next = node.fixed.get(segment) ?? newNode<Target>();
        node.fixed.set(segment, next);
        node = next;
      }
    }
    if (node.ends) throw new Error(`route ${template}: its paths are already ${node.ends.template}'s`);
    const fixedMatch = parameters === 0 ? { template, target, params: NO_PARAMS } : null;
    node.ends = { template, target, fixedMatch };
  }
  const unmatchedMatches = new Map<Target, RouteMatch<Target>>();

  return {
    match(pathname) {
      const segments = pathname.split("/");
      const params: string[] = [];
      const ends = segments[0] === "" ? descend(root, segments, 1, params)?.ends : undefined;
      if (ends) return ends.fixedMatch ?? { template: ends.template, target: ends.target, params };
      const target = unmatched(pathname);
      let match = unmatchedMatches.get(target);
      if (!match) {
        match = { template: null, target, params: NO_PARAMS };
        unmatchedMatches.set(target, match);
      }
      return match;
    },
  };
}

/** The node where `segments` from `index` on end a template; `params` collects the parameters' values on the way. */
function descend<Target>(
  node: Node<Target>,
  segments: readonly string[],
  index: number,
  params: string[],
): Node<Target> | null {
  if (index === segments.length) return node.ends ? node : null;
  const segment = segments[index] ?? "";
  const fixed = node.fixed.get(segment);
  const viaFixed = fixed ? descend(fixed, segments, index + 1, params) : null;
  if (viaFixed || !node.parameter || segment === "") return viaFixed;
  params.push(segment);
  const viaParameter = descend(node.parameter, segments, index + 1, params);
  if (!viaParameter) params.pop();
  return viaParameter;
}
