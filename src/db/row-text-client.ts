// node-postgres decodes each value of a row by a Buffer#toString of its own,
// a call into C++ per value: for a page of short texts, most of what reading
// it costs. This client's connections decode a row's bytes in one call
// (latin1, a character per byte) and cut each value out of that text. A
// value holding a byte above 0x7f, where latin1 and UTF-8 part ways, is
// decoded as UTF-8, as pg does: every value is the string pg would give.
// Every other message goes to pg-protocol's own parser.
//
// This is the one module that reaches into a dependency's internals: a pg
// connection's `attachListeners`. `pgInternalsChanged` says whether the pg
// installed still has them as this module knows them (test/db/row-text-client.test.ts).
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

/** A message cut by a chunk's end is held in a buffer kept for the next; one larger is let go once read. */
const KEPT_BYTES = 64 * 1024;

/**
 * Reads what the server sends, chunk by chunk, as messages in order: rows
 * decoded here, every other message handed whole to pg-protocol's parser.
 */
export function createMessageReader(onMessage: (message: Message) => void): (chunk: Buffer) => void {
  // pg-protocol's parser reads a stream's "data"; it is given one whole message at a time.
  const others = new EventEmitter();
  void parse(others as unknown as NodeJS.ReadableStream, onMessage);
  const handle = (bytes: Buffer, start: number, end: number) => {
    if (bytes[start] === DATA_ROW) onMessage(readDataRow(bytes, start, end));
    else others.emit("data", bytes.subarray(start, end));
  };
  // Only the bytes of the one message a chunk's end cuts are copied, into `held`: the messages
  // a chunk holds whole are read where they lie.
  let held: Buffer | null = null;
  let heldLength = 0;
  const hold = (chunk: Buffer, from: number, to: number) => {
    const size = heldLength + to - from;
    // Once its header is in, the message's own length is what the buffer must hold, made once.
    const end =
      held && heldLength >= HEADER_BYTES
        ? 1 + held.readUInt32BE(1)
        : heldLength === 0 && to - from >= HEADER_BYTES
          ? 1 + chunk.readUInt32BE(from + 1)
          : HEADER_BYTES;
    const wanted = Math.max(size, end);
    if (!held || held.length < wanted) {
      const grown = Buffer.allocUnsafe(wanted);
      held?.copy(grown, 0, 0, heldLength);
      held = grown;
    }
    chunk.copy(held, heldLength, from, to);
    heldLength = size;
  };
  return (chunk) => {
    let offset = 0;
    if (heldLength > 0 && held) {
      // The header first, which may itself have been cut; then the rest of the message.
      const headerMissing = Math.max(0, HEADER_BYTES - heldLength);
      if (chunk.length < headerMissing) {
        hold(chunk, 0, chunk.length);
        return;
      }
      hold(chunk, 0, headerMissing);
      const end: number = 1 + held.readUInt32BE(1);
      const missing = end - heldLength;
      if (chunk.length - headerMissing < missing) {
        hold(chunk, headerMissing, chunk.length);
        return;
      }
      hold(chunk, headerMissing, headerMissing + missing);
      offset = headerMissing + missing;
      heldLength = 0;
      const message = held;
      if (message.length > KEPT_BYTES) held = null;
      handle(message, 0, end);
    }
    while (offset + HEADER_BYTES <= chunk.length) {
      const end = offset + 1 + chunk.readUInt32BE(offset + 1);
      if (end > chunk.length) break;
      handle(chunk, offset, end);
      offset = end;
    }
    if (offset < chunk.length) hold(chunk, offset, chunk.length);
  };
}

/** The readers `createMessageReader` made for a client's connection, to tell them from pg's own. */
const connectionReaders = new WeakSet<object>();

/** pg's connection, with the method this client replaces (pg/lib/connection.js). */
interface ReadingConnection extends pg.Connection {
  attachListeners(stream: NodeJS.ReadableStream): void;
}

/**
 * pg's `Connection#attachListeners` as this module replaces it, blanks
 * collapsed: handed each stream the connection reads (the socket, then the
 * TLS socket when it upgrades), it emits every message pg-protocol parses
 * from it under the message's name (`errorMessage` for `error`), and as
 * `message` too when someone listens for that.
 */
const PG_ATTACH_LISTENERS =
  "attachListeners(stream) { parse(stream, (msg) => { const eventName = msg.name === 'error' ? 'errorMessage' : msg.name if (this._emitMessage) { this.emit('message', msg) } this.emit(eventName, msg) }) }";

/** Where pg's connection calls `attachListeners`: on connecting, and on upgrading to TLS. */
const PG_CALLS = {
  connect: "this.attachListeners(this.stream)",
  upgradeToSSL: "self.attachListeners(self.stream)",
};

const collapsed = (source: string) => source.replace(/\s+/g, " ").trim();

/**
 * What in the pg installed differs from what this client replaces, each a
 * sentence; empty when nothing does. A change means the client must be
 * checked against pg's new connection (docs/design/contributing.md,
 * "Upgrading pg and Prisma"): unchecked, the client would read the server
 * with pg's own parser, or not as pg now does.
 */
export function pgInternalsChanged(): string[] {
  const source = (name: string) => {
    const method: unknown = Reflect.get(pg.Connection.prototype, name);
    return typeof method === "function" ? collapsed(method.toString()) : null;
  };
  const changes: string[] = [];
  const attach = source("attachListeners");
  if (attach === null) changes.push("pg's Connection has no attachListeners method");
  else if (attach !== PG_ATTACH_LISTENERS)
    changes.push(`pg's Connection#attachListeners reads differently: ${attach}`);
  for (const [method, call] of Object.entries(PG_CALLS))
    if (!source(method)?.includes(call)) changes.push(`pg's Connection#${method} no longer calls ${call}`);
  return changes;
}

/**
 * A pg client whose connection reads messages with `createMessageReader`:
 * pg's `attachListeners` with the reader in place of pg-protocol's `parse`.
 */
export class RowTextClient extends pg.Client {
  constructor(config?: string | pg.ClientConfig) {
    super(config);
    const connection = this.connection as ReadingConnection;
    connection.attachListeners = (stream) => {
      const read = createMessageReader((message) => {
        if (connection.listenerCount("message") > 0) connection.emit("message", message);
        connection.emit(message.name === "error" ? "errorMessage" : message.name, message);
      });
      connectionReaders.add(read);
      stream.on("data", read);
    };
  }
}

/** Whether what `client`'s connection reads goes through a row-text reader (and nothing else). */
export function readsRowTexts(client: pg.Client): boolean {
  const listeners = client.connection.stream.listeners("data");
  return listeners.length === 1 && listeners.every((listener) => connectionReaders.has(listener));
}
