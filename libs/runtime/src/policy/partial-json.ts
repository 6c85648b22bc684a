/**
 * Progressive parsing of a JSON answer while it streams (seed §6.3 `structured_data`): the text
 * so far is cleaned like a final answer (`extractJsonText`: prose and fences tolerated), then
 * completed — an open string closed, open objects and arrays closed, a dangling `,`, `:` or
 * half-written literal dropped — so a consumer can render the object as it grows.
 */
import { extractJsonText } from './json-output-parser.js';

/** The value parsed from `text` so far, and whether the JSON in it is already complete. */
export interface PartialJson {
  value: unknown;
  complete: boolean;
}

/** `undefined` while `text` holds no JSON value that can be completed yet. */
export function parsePartialJson(text: string): PartialJson | undefined {
  const json = extractJsonText(text);
  if (json === undefined) return undefined;
  const whole = tryParse(json);
  if (whole.ok) return { value: whole.value, complete: true };
  // Cut back one member at a time (a half-written key or literal) until the rest closes.
  let prefix = json;
  for (let attempt = 0; attempt < 64 && prefix !== ''; attempt++) {
    const scan = scanJson(prefix);
    const closed = tryParse(scan.text + closers(scan));
    if (closed.ok) return { value: closed.value, complete: false };
    prefix = prefix.slice(0, scan.cut);
  }
  return undefined;
}

interface Scan {
  /** `prefix` with an open string closed and trailing `,` / `:` / whitespace dropped. */
  text: string;
  /** Open containers, outermost first (`{` or `[`). */
  stack: string[];
  /** Where to cut to drop the last (incomplete) member. */
  cut: number;
}

function scanJson(prefix: string): Scan {
  const stack: string[] = [];
  let inString = false;
  let cut = 0;
  for (let index = 0; index < prefix.length; index++) {
    const char = prefix[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') {
      stack.push(char);
      cut = index + 1;
    } else if (char === '}' || char === ']') stack.pop();
    else if (char === ',') cut = index;
  }
  let text = inString ? `${prefix.endsWith('\\') ? prefix.slice(0, -1) : prefix}"` : prefix;
  text = text.replace(/[\s,:]+$/, '');
  return { text, stack, cut: cut >= prefix.length ? Math.max(0, prefix.length - 1) : cut };
}

function closers(scan: Scan): string {
  return scan.stack
    .map((open) => (open === '{' ? '}' : ']'))
    .reverse()
    .join('');
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/**
 * The seed's light check of a partial object against a JSON Schema: its top-level keys are all
 * properties the schema knows (`anyOf` / `oneOf` / `allOf` branches included). A schema that
 * allows additional properties accepts any keys.
 */
export function keysFitSchema(value: unknown, schema: Record<string, unknown>): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return schema.type !== 'object';
  const known = knownProperties(schema);
  if (known === 'any') return true;
  return Object.keys(value).every((key) => known.has(key));
}

function knownProperties(schema: Record<string, unknown>): Set<string> | 'any' {
  const known = new Set<string>();
  const branches = ['anyOf', 'oneOf', 'allOf'].flatMap((key) =>
    Array.isArray(schema[key]) ? (schema[key] as Record<string, unknown>[]) : [],
  );
  const ownProperties = schema.properties;
  if (typeof ownProperties === 'object' && ownProperties !== null) {
    for (const key of Object.keys(ownProperties)) known.add(key);
    if (schema.additionalProperties !== false) return 'any';
  }
  for (const branch of branches) {
    const inner = knownProperties(branch);
    if (inner === 'any') return 'any';
    for (const key of inner) known.add(key);
  }
  if (known.size === 0 && branches.length === 0) return 'any';
  return known;
}
