// Events' records read from rows (the planned batch read of each record
// type whose read compiles) are the same bytes as the records rendered by
// executing their documents: two generated buyers whose records hold 20-digit
// and trailing-zero amounts, nulls, and text JSON must escape, rendered in
// one batch of both buyers inside a transaction, both ways. A buyer's batch
// never renders another buyer's record.
import { randomUUID } from "node:crypto";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createEventRenderer } from "../../src/app.js";
import type { PrismaClient } from "../../src/db/generated/prisma/client.js";
import { createRecordRenderer, renderRecordsOfBuyers } from "../../src/rest/record-renderer.js";
import { schema } from "../../src/schema/index.js";
import { webhookEndpointsWith } from "../../src/services/webhook-endpoints.js";
import { type GeneratedBuyer, generateTwoBuyers } from "../support/planned-reads.js";
import { testConfig } from "../support/test-app.js";
import { createTestDatabase, type TestDatabase } from "../support/test-database.js";

type BatchRecord = { recordType: string; recordId: string; buyerId: string; changedAt: Date };

let database: TestDatabase;
let first: GeneratedBuyer;
let second: GeneratedBuyer;
/** Every statement sent, as Prisma reports it. */
const statements: string[] = [];

beforeAll(async () => {
  database = await createTestDatabase({ onQuery: (sql) => statements.push(sql) });
  [first, second] = await generateTwoBuyers(database);
}, 120_000);

afterAll(async () => {
  await database?.close();
});

const config = testConfig();

/** Records of every planned type, and a buyer product, of `owner`, each asked for as `asBuyer`'s. */
function recordsOf(owner: GeneratedBuyer, asBuyer: GeneratedBuyer): BatchRecord[] {
  const changedAt = new Date("2025-06-15T12:30:45.120Z");
  const of = (recordType: string, ids: readonly string[]) =>
    ids.map((recordId) => ({ recordType, recordId, buyerId: asBuyer.buyerId, changedAt }));
  return [
    ...of("order", owner.orderIds),
    ...of("buyer_product_approval", owner.approvalIds),
    ...of("supplier_user", owner.supplierUserIds),
    ...of("buyer_product", owner.buyerProductIds),
  ];
}

/** What the event renderer logged: how each record type is read, and any failed batch read. */
const logLines: { msg: string; planned?: string[]; executed?: Record<string, string> }[] = [];
const logger = pino({ level: "info" }, { write: (line: string) => logLines.push(JSON.parse(line)) });

/** Records as the webhook worker renders them (planned where the planner plans them). */
function renderPlanned(records: readonly BatchRecord[]): Promise<(string | null)[]> {
  const render = createEventRenderer({ config, database, logger });
  return database.prisma.$transaction((tx) => render(tx, records));
}

/** Records rendered by executing their documents, inside a transaction as the worker does. */
function renderExecuted(records: readonly BatchRecord[]): Promise<(string | null)[]> {
  const render = createRecordRenderer(schema);
  const orderUpdates = {
    subscribe: () => Promise.reject(new Error("rendering does not subscribe")),
    close: async () => {},
  };
  return database.prisma.$transaction((tx) =>
    renderRecordsOfBuyers(
      render,
      (buyerId) => ({
        prisma: tx as PrismaClient,
        viewer: { buyerId, apiKeyId: "" },
        requestId: "webhook-events",
        appBaseUrl: config.appBaseUrl,
        orderUpdates,
        webhookEndpoints: webhookEndpointsWith(config.webhooks),
      }),
      records,
    ),
  );
}

/** The planned statements sent while `run` ran: their select lists name columns by position, `"0"`, …. */
async function plannedStatementsOf<Result>(run: () => Promise<Result>): Promise<[Result, string[]]> {
  const before = statements.length;
  const result = await run();
  return [result, statements.slice(before).filter((sql) => sql.includes('AS "0"'))];
}

describe("events' records read from rows", { timeout: 120_000 }, () => {
  afterAll(() => {
    // Every batch was read from rows: none failed and fell back to execution.
    expect(logLines.filter((line) => line.msg !== "event records: planned from rows, or executed")).toEqual(
      [],
    );
  });

  it("are planned for the record types whose read compiles, and the startup log says which", () => {
    createEventRenderer({ config, database, logger });
    const [planned] = logLines.filter((line) => line.msg === "event records: planned from rows, or executed");
    expect(planned?.planned).toEqual(
      expect.arrayContaining(["order", "buyer_product", "buyer_product_approval", "supplier_user"]),
    );
    // Every record type once, each way with its reason.
    expect([...(planned?.planned ?? []), ...Object.keys(planned?.executed ?? {})].sort()).toEqual([
      "buyer_product",
      "buyer_product_approval",
      "order",
      "supplier_user",
      "tagging",
    ]);
  });

  it("are the bytes execution renders, both buyers in one batch, one statement per planned type and buyer", async () => {
    const records = [
      ...recordsOf(first, first),
      ...recordsOf(second, second),
      // Missing records, of a type planned and of one executed.
      { recordType: "order", recordId: randomUUID(), buyerId: first.buyerId, changedAt: new Date() },
      { recordType: "tagging", recordId: randomUUID(), buyerId: second.buyerId, changedAt: new Date() },
    ];
    const [planned, plannedStatements] = await plannedStatementsOf(() => renderPlanned(records));
    const executed = await renderExecuted(records);
    // Orders, approvals, supplier users and buyer products, for each of the two buyers.
    expect(plannedStatements).toHaveLength(8);
    expect(plannedStatements.every((sql) => sql.includes("= ANY("))).toBe(true);
    expect(planned).toHaveLength(records.length);
    for (const [index, record] of records.entries())
      expect({ record, text: planned[index] }).toEqual({ record, text: executed[index] });
    expect(planned.slice(0, -2).every((text) => text !== null)).toBe(true);
    expect(planned.slice(-2)).toEqual([null, null]);
    // The edge values are there to compare: 20 significant digits, and escapes.
    expect(planned.some((text) => /\d{14}\.\d{6}/.test(text ?? ""))).toBe(true);
    expect(planned.some((text) => (text ?? "").includes("\\n"))).toBe(true);
    // Buyer products matched, not matched, and from before the outcome was stored.
    for (const autoMatch of ['"auto_match":null', '"matched":true', '"matched":false'])
      expect(planned.some((text) => (text ?? "").includes(autoMatch))).toBe(true);
  });

  it("never render another buyer's record, nor anything of another buyer's", async () => {
    const asOther = [...recordsOf(second, first), ...recordsOf(first, second)];
    const [planned, plannedStatements] = await plannedStatementsOf(() => renderPlanned(asOther));
    expect(plannedStatements).toHaveLength(8);
    expect(planned.every((text) => text === null)).toBe(true);
    expect(await renderExecuted(asOther)).toEqual(planned);

    const own = [...recordsOf(first, first), ...recordsOf(second, second)];
    const rendered = await renderPlanned(own);
    for (const [index, record] of own.entries()) {
      const others = record.buyerId === first.buyerId ? second.ownIds : first.ownIds;
      const text = rendered[index] ?? "";
      expect(others.filter((id) => text.includes(id))).toEqual([]);
    }
  });

  it("render a batch's taggings with the same three reads, whatever their number", async () => {
    const { prisma } = database;
    const tagGroupId = randomUUID();
    await prisma.tagGroup.create({ data: { id: tagGroupId, buyerId: first.buyerId, name: "Compliance" } });
    const tagIds = [randomUUID(), randomUUID(), randomUUID()].sort();
    for (const [index, id] of tagIds.entries())
      await prisma.tag.create({
        data: { id, buyerId: first.buyerId, tagGroupId, name: `Tag "${index}"`, category: "compliance" },
      });
    const earlier = new Date("2025-06-01T08:00:00.000Z");
    const later = new Date("2025-06-02T08:00:00.500Z");
    const tagged = first.orderIds.slice(0, 6);
    // These orders' generated taggings give way to the test's own; the eleventh is left untagged.
    await prisma.tagging.deleteMany({ where: { taggableId: { in: first.orderIds.slice(0, 11) } } });
    for (const [index, taggableId] of tagged.entries())
      await prisma.tagging.createMany({
        data: tagIds.slice(0, 1 + (index % 3)).map((tagId, position) => ({
          tagId,
          taggableId,
          taggableType: "Order" as const,
          buyerId: first.buyerId,
          createdAt: position === 0 ? earlier : later,
        })),
      });
    const records: BatchRecord[] = tagged.map((recordId, index) => ({
      recordType: "tagging",
      recordId,
      buyerId: first.buyerId,
      changedAt: index % 2 === 0 ? earlier : later,
    }));
    // An untagged record, and a tagged record asked for as the other buyer's.
    records.push({ ...(records[0] as BatchRecord), recordId: first.orderIds[10] ?? "" });
    records.push({ ...(records[1] as BatchRecord), buyerId: second.buyerId });

    const tagReadsOf = async (batch: BatchRecord[]) => {
      const before = statements.length;
      const rendered = await renderPlanned(batch);
      const sent = statements.slice(before).filter((sql) => /FROM "public"\."(taggings|tags)"/.test(sql));
      return { rendered, sent };
    };
    // The same reads for two taggings as for seven: the taggings, their tags, the tags' groups.
    const [firstTwo, firstAll] = [
      await tagReadsOf(records.slice(0, 2)),
      await tagReadsOf(records.slice(0, -1)),
    ];
    expect(firstAll.sent).toHaveLength(firstTwo.sent.length);
    expect(firstAll.sent.length).toBeLessThanOrEqual(3);
    const { rendered } = await tagReadsOf(records);
    const alone = [];
    for (const record of records) alone.push(...(await renderExecuted([record])));
    expect(rendered).toEqual(alone);
    expect(rendered.slice(-2)).toEqual([null, null]);
    const objects = rendered.slice(0, tagged.length).map((text) => JSON.parse(text ?? "null"));
    for (const [index, object] of objects.entries()) {
      const onRecord = tagIds.slice(0, 1 + (index % 3));
      expect(object.tags.map((tag: { id: string }) => tag.id)).toEqual(onRecord);
      expect(object.added_tag_ids).toEqual(index % 2 === 0 ? onRecord.slice(0, 1) : onRecord.slice(1));
    }
  });

  it("read inside the worker's transaction, seeing its own writes", async () => {
    const [orderId = ""] = first.orderIds;
    const quantity = "12345678901234.567890";
    const render = createEventRenderer({ config, database, logger });
    const record = { recordType: "order", recordId: orderId, buyerId: first.buyerId, changedAt: new Date() };
    const rolledBack = new Error("roll back");
    let inside: string | null = null;
    await expect(
      database.prisma.$transaction(async (tx) => {
        await tx.order.update({ where: { id: orderId }, data: { quantity } });
        inside = (await render(tx, [record]))[0] ?? null;
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(inside).toContain('"quantity":12345678901234.56789,');
    const [after] = await renderPlanned([record]);
    expect(after).not.toContain("12345678901234.56789");
  });
});
