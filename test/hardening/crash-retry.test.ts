// A client retries a POST with the same Idempotency-Key after the server died
// (kill -9) between committing the request's work and answering it. The retry
// must replay what was committed, never create it a second time, however long
// after the crash it comes. PGlite belongs to one process, so this runs where
// DATABASE_URL names PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SeededBuyer, seedBuyer } from "../support/seed.js";
import { type ServerProcess, startServerProcess } from "../support/server-process.js";
import { createTestDatabase, onPostgres, type TestDatabase } from "../support/test-database.js";

describe.runIf(onPostgres)("a retry after kill -9 between commit and response", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let buyer: SeededBuyer;
  let survivor: ServerProcess;

  beforeAll(async () => {
    database = await createTestDatabase();
    buyer = await seedBuyer(database, "Crash Retry");
    survivor = await startServerProcess({ DATABASE_URL: database.url });
  }, 60_000);
  afterAll(async () => {
    survivor?.child.kill("SIGTERM");
    await survivor?.exited;
    await database?.close();
  });

  const post = (baseUrl: string, path: string, body: unknown, key: string) =>
    fetch(`${baseUrl}/api/public/buyer/v1${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": buyer.apiKey, "idempotency-key": key },
      body: JSON.stringify(body),
    });

  const cases = [
    {
      name: "POST /buyer_products",
      path: () => "/buyer_products",
      body: { raw_material_name: "Crash Retry Resin", measurement_unit: "kg", product_type: "Other" },
      count: () => database.prisma.buyerProduct.count({ where: { rawMaterialName: "Crash Retry Resin" } }),
      createdId: async () =>
        (await database.prisma.buyerProduct.findFirst({ where: { rawMaterialName: "Crash Retry Resin" } }))
          ?.id,
    },
    {
      name: "POST /suppliers/{id}/users",
      path: () => `/suppliers/${buyer.supplierId}/users`,
      body: { first_name: "Crash", last_name: "Retry", contact_email: "crash.retry@example.com" },
      count: () => database.prisma.supplierUser.count({ where: { lastName: "Retry" } }),
      createdId: async () =>
        (await database.prisma.supplierUser.findFirst({ where: { lastName: "Retry" } }))?.id,
    },
  ] as const;

  it.each(cases.map((testCase) => [testCase.name, testCase] as const))(
    "%s: the retry replays the committed creation; one record",
    async (name, testCase) => {
      const key = `crash-${name}`;
      const doomed = await startServerProcess({
        DATABASE_URL: database.url,
        BPA_TEST_CRASH_AFTER_COMMIT: "1",
      });
      await expect(post(doomed.baseUrl, testCase.path(), testCase.body, key)).rejects.toThrow();
      expect(await doomed.exited).toBeNull();
      expect(await testCase.count()).toBe(1);
      // Whatever a first attempt left behind, a retry long after it (past any
      // "presumed dead" window) must not make the work happen again.
      await database.prisma.$executeRaw`
        UPDATE idempotency_records SET created_at = created_at - interval '1 hour' WHERE key = ${key}`;

      const retry = await post(survivor.baseUrl, testCase.path(), testCase.body, key);
      expect(retry.status).toBe(201);
      expect(retry.headers.get("idempotent-replayed")).toBe("true");
      const body = (await retry.json()) as { id: string };
      expect(await testCase.count()).toBe(1);
      expect(body.id).toBe(await testCase.createdId());

      const again = await post(survivor.baseUrl, testCase.path(), testCase.body, key);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(await again.json()).toEqual(body);
    },
  );

  it("POST /taggings: the retry replays the committed attachment; nothing attached twice", async () => {
    const key = "crash-taggings";
    const body = { taggable_id: buyer.approvalId, tag_ids: [buyer.tagIds[0], buyer.tagIds[1]] };
    const doomed = await startServerProcess({ DATABASE_URL: database.url, BPA_TEST_CRASH_AFTER_COMMIT: "1" });
    await expect(post(doomed.baseUrl, "/taggings", body, key)).rejects.toThrow();
    expect(await doomed.exited).toBeNull();
    await database.prisma.$executeRaw`
      UPDATE idempotency_records SET created_at = created_at - interval '1 hour' WHERE key = ${key}`;

    const retry = await post(survivor.baseUrl, "/taggings", body, key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    // The first attempt attached both tags; its answer, replayed, says so.
    expect(((await retry.json()) as { added_tag_ids: string[] }).added_tag_ids).toEqual(body.tag_ids);
    expect(await database.prisma.tagging.count({ where: { taggableId: buyer.approvalId } })).toBe(2);
  });
});
