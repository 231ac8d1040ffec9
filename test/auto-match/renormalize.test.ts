// Match keys are computed in JavaScript and stored. After an upgrade changes
// normalisation, an operator runs `buyer-api catalogue renormalize`, and
// products stored with old keys are found again. The real CLI, in a child process.

import { beforeAll, describe, expect, it } from "vitest";
import { matchKeys } from "../../src/domain/match-rules.js";
import { findCandidates } from "../../src/services/match-rules.js";
import { databaseForChildProcesses } from "../support/child-process-database.js";
import { runCli } from "../support/cli-process.js";
import { seedBuyer } from "../support/seed.js";

// Each run starts Node with tsx and opens the database: seconds, not milliseconds.
const SLOW = 90_000;

describe("buyer-api catalogue renormalize", () => {
  const shared = databaseForChildProcesses("buyer-api-renormalize-");
  let staleId: string;
  /** A product auto-match created: no text of its own, its keys come from the buyer product that made it. */
  let createdId: string;

  const cli = (...args: string[]) => runCli(shared.url, ...args);

  const bestMatch = (name: string): Promise<string | undefined> =>
    shared.use(async (database) => {
      const keys = matchKeys({ rawMaterialName: name, productType: "RawMaterial" });
      const [best] = await findCandidates(database.prisma, keys, 1);
      return best?.productId;
    });

  beforeAll(async () => {
    await shared.use(async (database) => {
      // As an earlier release stored it: "sulphate" kept, synonyms not normalised at all.
      const stale = await database.prisma.product.create({
        data: {
          id: "00000000-0000-4000-8000-00000000e050",
          name: "Magnesium Sulphate Heptahydrate",
          normalizedName: "magnesium sulphate heptahydrate",
          synonyms: ["Epsom Salt"],
          normalizedSynonyms: [],
          productType: "RawMaterial",
        },
      });
      staleId = stale.id;
      await database.prisma.product.create({
        data: {
          id: "00000000-0000-4000-8000-00000000e051",
          name: "Glycerin",
          normalizedName: "glycerin",
          synonyms: [],
          normalizedSynonyms: [],
          productType: "RawMaterial",
        },
      });
      const buyer = await seedBuyer(database, "Renormalize");
      createdId = "00000000-0000-4000-8000-00000000e052";
      const originId = "00000000-0000-4000-8000-00000000e053";
      await database.prisma.product.create({
        data: {
          id: createdId,
          name: null,
          normalizedName: "aluminium chlorohydrate",
          synonyms: [],
          normalizedSynonyms: [],
          productType: "RawMaterial",
          originBuyerProductId: originId,
        },
      });
      await database.prisma.buyerProduct.create({
        data: {
          id: originId,
          buyerId: buyer.buyerId,
          productId: createdId,
          rawMaterialName: "Aluminium Chlorohydrate",
          measurementUnit: "kg",
          productType: "RawMaterial",
        },
      });
    });
  }, SLOW);

  it(
    "recomputes stale keys, so the product is found again by name and synonym; a second run changes nothing",
    async () => {
      expect(await bestMatch("Magnesium Sulfate Heptahydrate")).toBeUndefined();
      expect(await bestMatch("Epsom salt")).toBeUndefined();
      expect(await bestMatch("Aluminum Chlorohydrate")).toBeUndefined();

      // Four products: the two above, the seeded buyer's Glycerin, and the one auto-match created.
      const first = await cli("catalogue", "renormalize");
      expect(first).toMatchObject({ code: 0, stderr: "" });
      expect(first.stdout).toBe("4 catalogue product(s) checked, 2 with new match keys.\n");

      expect(await bestMatch("Magnesium Sulfate Heptahydrate")).toBe(staleId);
      expect(await bestMatch("Epsom salt")).toBe(staleId);
      expect(await bestMatch("Aluminum Chlorohydrate")).toBe(createdId);

      const second = await cli("catalogue", "renormalize");
      expect(second.stdout).toBe("4 catalogue product(s) checked, 0 with new match keys.\n");
    },
    SLOW,
  );
});
