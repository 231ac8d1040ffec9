// A dry run of auto-match: what createBuyerProduct would link a description
// to, and what else came close, without creating anything.
import { queryFromInfo } from "@pothos/plugin-prisma";
import type { Product } from "../../db/generated/prisma/client.js";
import { validationFailed } from "../../domain/errors.js";
import { InputChecks } from "../../domain/input-checks.js";
import { type MatchCandidate, matchKeys } from "../../domain/match-rules.js";
import { findCandidates } from "../../services/match-rules.js";
import { builder } from "../builder.js";
import { ProductTypeEnum } from "../enums.js";
import { executedReadExtension } from "../read-metadata.js";
import { requireViewer } from "../require-viewer.js";
import { ProductRef, withOwnName } from "./product.js";

/** Enough to choose between, few enough to read. */
const MAX_CANDIDATES = 10;

type CandidateWithProduct = MatchCandidate & { product: Product };

const MatchCandidateRef = builder.objectRef<CandidateWithProduct>("MatchCandidate").implement({
  description: "A catalogue product that a description matches, and by which rule.",
  fields: (t) => ({
    product: t.field({
      type: ProductRef,
      description: "The catalogue product.",
      resolve: (candidate) => candidate.product,
    }),
    strategy: t.exposeString("strategy", {
      description:
        "The rule that matched, in the order the rules are tried: cas_number, code, name, synonym, similar_name.",
    }),
    score: t.exposeFloat("score", {
      description:
        "1 for exact rules; for similar_name the trigram similarity of the normalised names (0.8 to 1).",
    }),
  }),
});

builder.queryField("matchProduct", (t) =>
  t.field({
    type: [MatchCandidateRef],
    description:
      "Auto-match without side effects: the catalogue products a buyer product with this description would match, " +
      `best first (at most ${MAX_CANDIDATES}). createBuyerProduct links to the first one; when the list is empty ` +
      "it creates a new catalogue product.",
    extensions: executedReadExtension("it computes its candidates by the matching rules, not a read of rows"),
    args: {
      rawMaterialName: t.arg.string({
        required: true,
        description: "The buyer's name for the product; not blank, at most 255 characters.",
      }),
      rawMaterialCode: t.arg.string({ description: "The buyer's code for it; at most 255 characters." }),
      productType: t.arg({
        type: ProductTypeEnum,
        required: true,
        description: "Kind of product; names, synonyms and similar names only match within it.",
      }),
    },
    resolve: async (_root, args, context, info) => {
      requireViewer(context);
      const checks = new InputChecks();
      const rawMaterialName = checks.requiredText(["rawMaterialName"], args.rawMaterialName);
      const rawMaterialCode = checks.optionalText(["rawMaterialCode"], args.rawMaterialCode) || null;
      if (checks.problems.length) throw validationFailed(checks.problems);
      const keys = matchKeys({ rawMaterialName, rawMaterialCode, productType: args.productType });
      const candidates = await findCandidates(context.prisma, keys, MAX_CANDIDATES);
      // One query for every candidate's product, not one per candidate, with what the selection of
      // `product` reads: its fields then read these rows, under the name given here, not the catalogue's.
      const products = await context.prisma.product.findMany({
        ...queryFromInfo({ context, info, path: ["product"] }),
        where: { id: { in: candidates.map((candidate) => candidate.productId) } },
      });
      const byId = new Map(products.map((product) => [product.id, product]));
      return candidates.flatMap((candidate) => {
        const product = byId.get(candidate.productId);
        return product ? [{ ...candidate, product: withOwnName(product, rawMaterialName) }] : [];
      });
    },
  }),
);
