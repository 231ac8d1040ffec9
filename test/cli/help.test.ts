// `buyer-api … --help` in an 80-column terminal: every line fits, and a
// paragraph breaks a line only where its next word would not fit, never in
// the middle of a sentence that had room.
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/program.js";

const WIDTH = 80;

function everyCommand(command: Command, name = "buyer-api"): [string, Command][] {
  return [[name, command], ...command.commands.flatMap((sub) => everyCommand(sub, `${name} ${sub.name()}`))];
}

/** The lines of the text under `Usage:`, up to the first list heading. */
function descriptionLines(help: string): string[] {
  const lines = help.split("\n");
  const end = lines.findIndex((line, index) => index > 0 && /^[A-Z][a-z]+:$/.test(line));
  return lines.slice(2, end === -1 ? undefined : end);
}

/** For a list item's description, the lines after its first, with their indent. */
function itemContinuations(help: string): { line: string; next: string }[] {
  const lines = help.split("\n");
  const pairs: { line: string; next: string }[] = [];
  lines.forEach((line, index) => {
    const next = lines[index + 1] ?? "";
    // A continuation is indented past the two spaces every item starts with.
    if (line.startsWith("  ") && /^ {3,}\S/.test(next)) pairs.push({ line, next: next.trimStart() });
  });
  return pairs;
}

describe("CLI help", () => {
  const commands = everyCommand(buildProgram());
  for (const [, command] of commands) command.configureHelp({ helpWidth: WIDTH });

  it.each(commands.map(([name, command]) => [name, command] as const))(
    "%s --help fits 80 columns and wraps only where a word would not fit",
    (_name, command) => {
      const help = command.helpInformation();
      for (const line of help.split("\n")) expect(line.length, line).toBeLessThanOrEqual(WIDTH);
      const paragraph = descriptionLines(help);
      paragraph.forEach((line, index) => {
        const next = paragraph[index + 1] ?? "";
        if (line === "" || next === "") return;
        const nextWord = next.split(" ")[0] ?? "";
        expect(`${line} ${nextWord}`.length, `'${line}' then '${nextWord}'`).toBeGreaterThan(WIDTH);
      });
      for (const { line, next } of itemContinuations(help)) {
        const nextWord = next.split(" ")[0] ?? "";
        expect(`${line} ${nextWord}`.length, `'${line}' then '${nextWord}'`).toBeGreaterThan(WIDTH);
      }
    },
  );
});
