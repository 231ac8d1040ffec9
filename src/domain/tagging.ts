// Which records a buyer can tag, and the rules attaching and detaching share.
// The statements that attach and detach are src/services/tagging.ts.
import type { TaggableType } from "../db/generated/prisma/enums.js";

export type { TaggableType };

export const MAX_TAGS_PER_CALL = 100;

/**
 * Every kind of record a buyer can tag, by its type as the database's
 * `TaggableType` spells it: its table, and the column naming the buyer whose
 * record it is. The schema, the import and the tagging service all read this.
 */
export const TAGGABLE_RECORDS = {
  BuyerProduct: { table: "buyer_products", buyerColumn: "buyer_id" },
  Order: { table: "orders", buyerColumn: "buyer_id" },
  BuyerProductApproval: { table: "buyer_product_approvals", buyerColumn: "buyer_id" },
  SupplierUser: { table: "supplier_users", buyerColumn: "created_by_buyer_id" },
} as const satisfies Record<TaggableType, { table: string; buyerColumn: string }>;

/** The taggable types, in the order of `TAGGABLE_RECORDS`. */
export const TAGGABLE_TYPES = Object.keys(TAGGABLE_RECORDS) as TaggableType[];

/** Why a call to attach or detach tags was refused; both make the same checks. */
export type TaggingRefusal = { kind: "taggable_not_found" } | { kind: "unknown_tags"; indexes: number[] };

export const isTaggingRefusal = (outcome: { kind: string }): outcome is TaggingRefusal =>
  outcome.kind === "taggable_not_found" || outcome.kind === "unknown_tags";

export type AttachTagsOutcome =
  | { kind: "attached"; taggableType: TaggableType; addedTagIds: string[] }
  | TaggingRefusal;

export type DetachTagsOutcome =
  | { kind: "detached"; taggableType: TaggableType; removedTagIds: string[] }
  | TaggingRefusal;

/** Positions in `tagIds` of ids that are not among `buyerTagIds`, the buyer's tags. */
export function unknownTagIndexes(tagIds: readonly string[], buyerTagIds: ReadonlySet<string>): number[] {
  return tagIds.flatMap((id, index) => (buyerTagIds.has(id) ? [] : [index]));
}
