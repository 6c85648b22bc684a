/** Columns padded to their widest cell, two spaces apart, the last column unpadded; ends with a newline. */
export function textTable(headers: readonly string[], rows: readonly string[][]): string {
  const table = [[...headers], ...rows];
  const widths = headers.map((_, column) => Math.max(...table.map((row) => (row[column] ?? '').length)));
  return table
    .map((row) =>
      row
        .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
        .join('  '),
    )
    .join('\n')
    .concat('\n');
}
