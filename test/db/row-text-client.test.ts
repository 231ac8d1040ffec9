// The PostgreSQL pools' message reader (src/db/row-text-client.ts): every
// row value is the string node-postgres's own parser gives, whatever the
// text, however the server's bytes are cut into chunks. The pools that read
// through it, against PostgreSQL, are in array-rows.test.ts.
import { EventEmitter } from "node:events";
import fc from "fast-check";
import { parse } from "pg-protocol";
import { describe, expect, it } from "vitest";
import { createMessageReader, pgInternalsChanged } from "../../src/db/row-text-client.js";

/** A backend message: its code, then its length (counting itself), then `body`. */
function message(code: string, body: Buffer): Buffer {
  const header = Buffer.alloc(5);
  header.write(code, 0, "latin1");
  header.writeUInt32BE(body.length + 4, 1);
  return Buffer.concat([header, body]);
}

/** A row of values, each a text, bytes as they are (not always UTF-8), or null. */
function dataRow(values: readonly (string | Uint8Array | null)[]): Buffer {
  const parts = [Buffer.from([values.length >> 8, values.length & 0xff])];
  for (const value of values) {
    const bytes = value === null ? Buffer.alloc(0) : Buffer.from(value as string);
    const length = Buffer.alloc(4);
    length.writeInt32BE(value === null ? -1 : bytes.length);
    parts.push(length, bytes);
  }
  return message("D", Buffer.concat(parts));
}

const commandComplete = (tag: string) => message("C", Buffer.from(`${tag}\0`, "utf8"));
const readyForQuery = message("Z", Buffer.from("I", "latin1"));
const errorResponse = (text: string) => message("E", Buffer.from(`SERROR\0C22012\0M${text}\0\0`, "utf8"));

/** The messages `chunks` make, read by `read` (a function of the callback that collects them). */
function messagesOf(chunks: readonly Buffer[], reader: "ours" | "pg") {
  const messages: object[] = [];
  if (reader === "ours") {
    const read = createMessageReader((received) => messages.push(received));
    for (const chunk of chunks) read(chunk);
  } else {
    const stream = new EventEmitter();
    void parse(stream as unknown as NodeJS.ReadableStream, (received) => messages.push(received));
    for (const chunk of chunks) stream.emit("data", chunk);
  }
  return messages;
}

/** `bytes` cut at `cuts` (positions into it, in any order). */
function cut(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const at = [...new Set(cuts.map((position) => position % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((start, index) => bytes.subarray(start, at[index] ?? bytes.length));
}

// Texts of every kind a column holds: ASCII, controls, Latin-1, CJK, astral, long (its length's bytes
// above 0x7f), and bytes that are not UTF-8.
const value = fc.oneof(
  fc.constant(null),
  fc.uint8Array({ maxLength: 20 }),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 12 }),
  fc.string({ minLength: 128, maxLength: 400 }),
  fc.constantFrom("", "é", "\u007f\u0080", "✓ 日本", "😀", `${"a".repeat(300)}é`),
);

describe("rows read from the server's bytes", () => {
  it("are the messages pg-protocol reads, in order, however the bytes come in chunks", () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(value, { maxLength: 12 }), { maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 6 }),
        (rows, cuts) => {
          const bytes = Buffer.concat([
            ...rows.map(dataRow),
            commandComplete(`SELECT ${rows.length}`),
            errorResponse("division by zero ✓"),
            readyForQuery,
          ]);
          const chunks = cut(bytes, cuts);
          expect(messagesOf(chunks, "ours")).toEqual(messagesOf([bytes], "pg"));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("give each value of a row as its own string, NULL as null", () => {
    const [row] = messagesOf([dataRow(["a", null, "", "é✓", "b"])], "ours");
    expect(row).toMatchObject({ name: "dataRow", fieldCount: 5, fields: ["a", null, "", "é✓", "b"] });
  });
});

// The guard for upgrading pg (docs/design/contributing.md, "Upgrading pg and Prisma").
describe("the pg installed", () => {
  it("reads the server as the row-text client expects, through the connection method it replaces", () => {
    expect(
      pgInternalsChanged(),
      "pg's connection changed where src/db/row-text-client.ts replaces it: check the client against it, then update PG_ATTACH_LISTENERS",
    ).toEqual([]);
  });
});
