/**
 * Where the members of a JSON object's text are, as `JSON.stringify` writes it (no whitespace):
 * for each member in order, the offset of its key's opening quote, of the `:` after the key, and
 * of the `,` or `}` that ends its value — `[keyStart, colon, valueEnd, …]` (its value is
 * `text.slice(colon + 1, valueEnd)`). Reads a run event's stream text field by field without
 * parsing or slicing it (`run-timeline.ts`). `undefined` when the text is not such an object.
 * `into`: an array to write them to from index 0 (one array for many texts: no new one each);
 * the returned length says how many are this text's.
 */
export function jsonObjectMembers(text: string, into: number[] = []): number | undefined {
  if (text.charCodeAt(0) !== OPEN_OBJECT || text.charCodeAt(text.length - 1) !== CLOSE_OBJECT)
    return undefined;
  let length = 0;
  if (text.length === 2) return length;
  let at = 1;
  for (;;) {
    if (text.charCodeAt(at) !== QUOTE) return undefined;
    const keyEnd = stringEnd(text, at);
    if (keyEnd === -1 || text.charCodeAt(keyEnd) !== COLON) return undefined;
    const valueEnd = valueEndOf(text, keyEnd + 1);
    if (valueEnd === -1 || valueEnd === keyEnd + 1) return undefined;
    into[length++] = at;
    into[length++] = keyEnd;
    into[length++] = valueEnd;
    if (valueEnd === text.length - 1) return length;
    at = valueEnd + 1;
  }
}

const QUOTE = 0x22;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const BACKSLASH = 0x5c;

/** The index after the string that opens at `at` (its closing quote + 1), or -1. */
function stringEnd(text: string, at: number): number {
  let end = text.indexOf('"', at + 1);
  while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
  return end === -1 ? -1 : end + 1;
}

/** Whether the character at `at` follows an odd number of backslashes. */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  for (let before = at - 1; text.charCodeAt(before) === BACKSLASH; before--) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * The index of the `,` or the object's closing `}` that ends the value starting at `start`,
 * or -1 when the text ends first.
 */
function valueEndOf(text: string, start: number): number {
  let depth = 0;
  for (let at = start; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === QUOTE) {
      at = stringEnd(text, at) - 1;
      if (at === -2) return -1;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) depth++;
    else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      if (depth === 0) return at;
      depth--;
    } else if (code === COMMA && depth === 0) return at;
  }
  return -1;
}
