import type { Viewer } from "../auth/viewer.js";
import { unauthenticated } from "../domain/errors.js";
import type { GraphQLContext } from "./context.js";

/** Every domain field needs a buyer; without a valid key there is none. */
export function requireViewer(context: GraphQLContext): Viewer {
  if (!context.viewer) throw unauthenticated();
  return context.viewer;
}
