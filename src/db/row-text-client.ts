// node-postgres decodes each value of a row by a Buffer#toString of its own,
// a call into C++ per value: for a page of short texts, most of what reading
// it costs. This client's connections decode a row's bytes in one call
// (latin1, a character per byte) and cut each value out of that text. A
// value holding a byte above 0x7f, where latin1 and UTF-8 part ways, is
// decoded as UTF-8, as pg does: every value is the string pg would give.
// Every other message goes to pg-protocol's own parser.
import { isAscii } from "node:buffer";
import { EventEmitter } from "node:events";
import pg from "pg";
import { parse } from "pg-protocol";

const DATA_ROW = 0x44; // "D"
/** A message's code, then its length, which counts itself. */
const HEADER_BYTES = 5;
/** A byte above 0x7f, in a row's latin1 text. */
const WIDE = /[\u0080-\u00ff]/g;

interface Message {
  readonly name: string;
}

/** A DataRow as pg-protocol reads it: `fields`, each a text or null for SQL NULL. */
function readDataRow(bytes: Buffer, start: number, end: number) {
  const text = bytes.toString("latin1", start, end);
  const count = bytes.readInt16BE(start + HEADER_BYTES);
  const fields = new Array<string | null>(count);
  let offset = start + HEADER_BYTES + 2;
  // Where in `text` the first wide byte at or after the value being read lies, once searched: a
  // row all ASCII has none (most rows, unless a NULL's or a long value's length holds such a byte),
  // and in the others one search serves the values up to the byte it finds.
  let wide = isAscii(bytes.subarray(offset, end)) ? Number.POSITIVE_INFINITY : -1;
  for (let index = 0; index < count; index += 1) {
    const length = bytes.readInt32BE(offset);
    offset += 4;
    if (length === -1) {
      fields[index] = null;
      continue;
    }
    const from = offset - start;
    if (wide < from) {
      WIDE.lastIndex = from;
      wide = WIDE.exec(text)?.index ?? Number.POSITIVE_INFINITY;
    }
    fields[index] =
      wide < from + length
        ? bytes.toString("utf8", offset, offset + length)
        : text.substring(from, from + length);
    offset += length;
  }
  return { name: "dataRow", length: end - start - 1, fieldCount: count, fields };
}

/**
 * Reads what the server sends, chunk by chunk, as messages in order: rows
 * decoded here, every other message handed whole to pg-protocol's parser.
 */
export function createMessageReader(onMessage: (message: Message) => void): (chunk: Buffer) => void {
  // pg-protocol's parser reads a stream's "data"; it is given one whole message at a time.
  const others = new EventEmitter();
  void parse(others as unknown as NodeJS.ReadableStream, onMessage);
  // The bytes of a message cut by the chunk's end wait in a buffer kept for that, grown as a
  // message needs: a page comes in many chunks, and a buffer made for each would be garbage.
  let held: Buffer | null = null;
  let rest: Buffer | null = null;
  return (chunk) => {
    let bytes = chunk;
    if (rest) {
      const size = rest.length + chunk.length;
      if (!held || held.length < size) held = Buffer.allocUnsafe(Math.max(size, 2 * (held?.length ?? 0)));
      // `rest` may lie in `held` itself: copy moves overlapping bytes as they were.
      rest.copy(held, 0);
      chunk.copy(held, rest.length);
      bytes = held.subarray(0, size);
    }
    rest = null;
    let offset = 0;
    while (offset + HEADER_BYTES <= bytes.length) {
      const end = offset + 1 + bytes.readUInt32BE(offset + 1);
      if (end > bytes.length) break;
      if (bytes[offset] === DATA_ROW) onMessage(readDataRow(bytes, offset, end));
      else others.emit("data", bytes.subarray(offset, end));
      offset = end;
    }
    if (offset < bytes.length) rest = bytes.subarray(offset);
  };
}

/** What pg's connection does with the messages it reads (pg/lib/connection.js). */
interface MessageEmitter extends EventEmitter {
  _emitMessage: boolean;
  attachListeners(stream: NodeJS.ReadableStream): void;
}

/**
 * A pg client whose connection reads messages with `createMessageReader`:
 * pg's `attachListeners`, called on the socket (and again on a TLS upgrade),
 * with the reader in place of pg-protocol's `parse`.
 */
export class RowTextClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const connection = this.connection as unknown as MessageEmitter;
    connection.attachListeners = (stream) => {
      const read = createMessageReader((message) => {
        if (connection._emitMessage) connection.emit("message", message);
        connection.emit(message.name === "error" ? "errorMessage" : message.name, message);
      });
      stream.on("data", read);
    };
  }
}
