/** Joins the text pieces of one message with `\n`, leaving out empty pieces. */
export function joinText(pieces: readonly string[]): string {
  return pieces.filter((piece) => piece !== '').join('\n');
}
