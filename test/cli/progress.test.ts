// An import's progress bar: drawn on stderr only when it is a terminal, and
// only for files of 5,000 rows or more, where the wait is worth showing; a
// pipe or a log file gets nothing, so scripts read clean output.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { importProgress } from "../../src/cli/progress.js";

/** A stream that keeps what is written, a terminal or not. */
function stream(isTTY: boolean): NodeJS.WriteStream & { written(): string } {
  let text = "";
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return Object.assign(sink, {
    isTTY,
    columns: 100,
    cursorTo: (_x: number, _y?: number | (() => void), callback?: () => void) => {
      if (typeof callback === "function") callback();
      return true;
    },
    clearLine: () => true,
    moveCursor: () => true,
    written: () => text,
  }) as unknown as NodeJS.WriteStream & { written(): string };
}

describe("an import's progress", () => {
  it("draws a bar of rows written on a terminal for a large file, and stops it at the end", () => {
    const terminal = stream(true);
    const progress = importProgress(terminal);
    progress.listener(0, 20_000);
    progress.listener(10_000, 20_000);
    progress.listener(20_000, 20_000);
    progress.stop();
    expect(terminal.written()).toMatch(/writing \[.*\] 100% \| 20000\/20000 rows/);
  });

  it("shows nothing for a file under 5,000 rows", () => {
    const terminal = stream(true);
    const progress = importProgress(terminal);
    progress.listener(0, 4_999);
    progress.listener(4_999, 4_999);
    progress.stop();
    expect(terminal.written()).toBe("");
  });

  it("writes nothing to a pipe or a file, however large the import", () => {
    const pipe = stream(false);
    const progress = importProgress(pipe);
    progress.listener(0, 100_000);
    progress.listener(100_000, 100_000);
    progress.stop();
    expect(pipe.written()).toBe("");
  });
});
