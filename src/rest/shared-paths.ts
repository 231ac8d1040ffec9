import { MapperKind, mapSchema } from "@graphql-tools/utils";
import type { GraphQLResolveInfo, GraphQLSchema } from "graphql";

type ResponsePath = GraphQLResolveInfo["path"];

interface SharedLink {
  readonly prev: SharedLink | undefined;
  readonly key: string | number;
  readonly typename: string | undefined;
  readonly children: Map<string | number, SharedLink>;
}

/** The top-level links of each request, by its context object: they go with the request. */
const rootsByRequest = new WeakMap<object, Map<string | number, SharedLink>>();

/**
 * The schema the REST routes are compiled against: the same types and
 * resolvers, with every resolver handed a response path whose links are shared
 * by all the fields beneath them, as graphql-js does. graphql-jit builds a
 * fresh chain of links for every resolver call; plugin-prisma keys its
 * per-request mappings by those links and memoises their string keys in a
 * WeakMap, so fresh chains both miss its scoped mappings and cost a WeakMap
 * insert per link per field. Every REST document runs against this schema
 * (docs/design/performance.md, "What performance rests on").
 */
export function withSharedResponsePaths(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.OBJECT_FIELD]: (field) => {
      const { resolve } = field;
      if (!resolve) return field;
      return {
        ...field,
        resolve: (source, args, context: object, info) =>
          resolve(source, args, context, sharePath(info, context)),
      };
    },
  });
}

function sharePath(info: GraphQLResolveInfo, context: object): GraphQLResolveInfo {
  let roots = rootsByRequest.get(context);
  if (!roots) {
    roots = new Map();
    rootsByRequest.set(context, roots);
  }
  // graphql-jit builds a new info object for every call, so replacing its path touches nobody else's.
  return Object.assign(info, { path: share(info.path, roots) });
}

function share(path: ResponsePath, roots: Map<string | number, SharedLink>): SharedLink {
  const prev = path.prev ? share(path.prev, roots) : undefined;
  const siblings = prev ? prev.children : roots;
  let link = siblings.get(path.key);
  if (!link) {
    link = { prev, key: path.key, typename: path.typename, children: new Map() };
    siblings.set(path.key, link);
  }
  return link;
}
