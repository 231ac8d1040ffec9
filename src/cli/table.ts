/** A plain text table: a header, then one line per row; numbers right-aligned. */
export function formatTable(
  headers: readonly string[],
  rows: readonly (readonly (string | number)[])[],
): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? "").length)));
  const numeric = headers.map(
    (_, column) => rows.length > 0 && rows.every((row) => typeof row[column] === "number"),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => {
        const width = widths[column] ?? 0;
        return numeric[column] ? cell.padStart(width) : cell.padEnd(width);
      })
      .join("  ")
      .trimEnd();
  return `${cells.map(line).join("\n")}\n`;
}

/** Timestamps in listings: UTC to the second, "-" when absent. */
export function formatTimestamp(value: Date | null | undefined): string {
  return value ? `${value.toISOString().slice(0, 19).replace("T", " ")}Z` : "-";
}

/** A listing's text: the table of `rows`, or the line `none` when there are none. */
export function listing<Row>(
  rows: readonly Row[],
  none: string,
  headers: readonly string[],
  cells: (row: Row) => readonly (string | number)[],
): string {
  return rows.length === 0 ? `${none}\n` : formatTable(headers, rows.map(cells));
}
