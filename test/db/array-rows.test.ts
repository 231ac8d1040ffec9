// The planned reads' statements on PostgreSQL (src/db/array-rows.ts): rows
// as arrays of PostgreSQL's texts, a named statement parsed once per
// connection, and every failure a rejected read that leaves the pool usable;
// and the pools of row-text clients they read through (src/db/row-text-client.ts)
// read what pg's own clients read.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queryArrayRows } from "../../src/db/array-rows.js";
import { RowTextClient, readsRowTexts } from "../../src/db/row-text-client.js";
import { onPostgres } from "../support/test-database.js";

// These statements read no table: the server DATABASE_URL names will do.
const url = process.env.DATABASE_URL ?? "";

describe.runIf(onPostgres)("statements read as arrays of texts", () => {
  let pool: pg.Pool;
  let admin: pg.Client;

  beforeAll(async () => {
    // One connection, of the kind the service's pools make: every statement meets what the ones before it left there.
    pool = new pg.Pool({ connectionString: url, max: 1, Client: RowTextClient });
    pool.on("error", () => {});
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
  });

  afterAll(async () => {
    await pool?.end();
    await admin?.end();
  });

  const backend = async () =>
    (await queryArrayRows(pool, "SELECT pg_backend_pid()::text", [], undefined))[0]?.[0];

  it("answer each row's texts in the select list's order, NULL as null, parameters bound", async () => {
    const rows = await queryArrayRows(
      pool,
      `SELECT x::text, NULL::text, $1::text || '"\\' FROM generate_series(1, 3) AS x`,
      ["é ✓"],
      undefined,
    );
    expect(rows).toEqual([
      ["1", null, 'é ✓"\\'],
      ["2", null, 'é ✓"\\'],
      ["3", null, 'é ✓"\\'],
    ]);
  });

  it("answer a value of any type as PostgreSQL's text of it, never converted", async () => {
    const rows = await queryArrayRows(
      pool,
      `SELECT 7::int, 2::bigint, 1.50::numeric(4,2), true, timestamp '2026-01-02 03:04:05.5', '{"a":1}'::jsonb, ARRAY[1, 2]`,
      [],
      undefined,
    );
    expect(rows).toEqual([["7", "2", "1.50", "t", "2026-01-02 03:04:05.5", '{"a": 1}', "{1,2}"]]);
  });

  it("parse a named statement once per connection, and run it again from there", async () => {
    const text = "SELECT $1::int + 1";
    for (const value of ["1", "2", "3"])
      expect(await queryArrayRows(pool, text, [value], "array_rows_plus_one")).toEqual([
        [String(Number(value) + 1)],
      ]);
    const prepared = await queryArrayRows(
      pool,
      "SELECT name, generic_plans + custom_plans FROM pg_prepared_statements WHERE name = 'array_rows_plus_one'",
      [],
      undefined,
    );
    expect(prepared).toEqual([["array_rows_plus_one", "3"]]);
  });

  it("refuse a named statement that does not parse every time, not as a statement that was never made", async () => {
    for (let attempt = 0; attempt < 2; attempt += 1)
      await expect(queryArrayRows(pool, "SELEC 1", [], "array_rows_typo")).rejects.toThrow(/syntax error/);
    expect(await backend()).toMatch(/^\d+$/);
  });

  it("reject a statement that fails, and run the next on a fresh connection", async () => {
    const before = await backend();
    await expect(queryArrayRows(pool, "SELECT (1 / $1::int)::text", ["0"], undefined)).rejects.toThrow(
      /division by zero/,
    );
    const after = await backend();
    expect(after).toMatch(/^\d+$/);
    expect(after).not.toBe(before);
  });

  it("reject a statement whose connection is terminated while it runs, and go on", async () => {
    const pid = await backend();
    // Its outcome is taken at once: the rejection may come before the termination's own answer.
    const outcome = queryArrayRows(pool, "SELECT pg_sleep(5)::text", [], undefined).then(
      () => null,
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    await admin.query("SELECT pg_terminate_backend($1::int)", [pid]);
    expect(String(await outcome)).toMatch(/terminating connection/);
    expect(await queryArrayRows(pool, "SELECT 'still here'", [], undefined)).toEqual([["still here"]]);
  });
});

describe.runIf(onPostgres)("a pool of row-text clients, against PostgreSQL", () => {
  let ours: pg.Pool;
  let theirs: pg.Pool;

  beforeAll(() => {
    ours = new pg.Pool({ connectionString: url, max: 2, Client: RowTextClient });
    theirs = new pg.Pool({ connectionString: url, max: 2 });
  });

  afterAll(async () => {
    await ours?.end();
    await theirs?.end();
  });

  // Rows of every kind of text, some longer than a socket's chunk, 2,000 in all.
  const ROWS = `
    SELECT n::text, (n * 1.5)::numeric(12,3), now() - n * interval '1 minute', n % 3 = 0,
           CASE n % 7 WHEN 0 THEN NULL WHEN 1 THEN '' WHEN 2 THEN 'é ✓ 日本 😀' WHEN 3 THEN E'\\x01\\t"\\\\'
                      WHEN 4 THEN repeat('long ', 40) || n ELSE 'plain ' || n END,
           CASE WHEN n % 500 = 0 THEN repeat('é', 70000) END,
           gen_random_uuid()::text IS NOT NULL
    FROM generate_series(1, 2000) AS n`;

  it("read what pg's own clients read, typed values and texts alike", async () => {
    const [mine, reference] = await Promise.all([
      ours.query({ text: ROWS, rowMode: "array" }),
      theirs.query({ text: ROWS, rowMode: "array" }),
    ]);
    expect(mine.rows).toHaveLength(2000);
    // The times differ between the two statements; everything else is the same.
    const untimed = (rows: unknown[][]) => rows.map((row) => row.filter((_, index) => index !== 2));
    expect(untimed(mine.rows)).toEqual(untimed(reference.rows));
    expect(mine.rows[1]?.[2]).toBeInstanceOf(Date);
    expect(mine.rows[1]?.[4]).toBe("é ✓ 日本 😀");
  });

  it("hands planned reads the same texts", async () => {
    const text = "SELECT $1::text, NULL, $1::text || repeat('✓', 200) FROM generate_series(1, 300)";
    const rows = await queryArrayRows(ours, text, ["é\u0080 😀"], undefined);
    expect(rows).toHaveLength(300);
    expect(rows[299]).toEqual(["é\u0080 😀", null, `é\u0080 😀${"✓".repeat(200)}`]);
  });

  it("take the place of the reader pg's connections use", async () => {
    const client = new RowTextClient({ connectionString: url });
    await client.connect();
    try {
      expect(readsRowTexts(client)).toBe(true);
      expect((await client.query("SELECT 'à' AS word")).rows).toEqual([{ word: "à" }]);
    } finally {
      await client.end();
    }
  });

  it("report PostgreSQL's errors as pg does, and go on", async () => {
    await expect(ours.query("SELECT 1 / 0")).rejects.toThrow(/division by zero/);
    expect((await ours.query("SELECT 'après' AS word")).rows).toEqual([{ word: "après" }]);
  });
});
