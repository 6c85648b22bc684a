/**
 * The one place that bounds values entering the runtime: nesting depth, size (UTF-8 bytes of
 * the JSON text) and JSON-safety. A value nested a few thousand levels deep makes every
 * recursive JSON writer (JSON.stringify, zod, structuredClone …) overflow the stack, so the walk
 * here keeps an explicit stack and stops at the first problem: it never recurses, and never
 * counts past the size limit.
 *
 * Each boundary checks once, naming where the value came from (`the job input`, `the
 * arguments of tool call "c1" from model "gpt"`, `tool "search" output`, `scope layer 0` …):
 * job data (`jobs/run-job-data.ts`), submissions (`client/submit-request.ts`), model answers
 * (`model/check-model-response.ts`), tool output (`policy/execute-tool-call.ts`) and events
 * (`events/redis-run-event-sink.ts`). The limits are configuration (`FLOTILLA_MAX_JSON_DEPTH`,
 * `FLOTILLA_MAX_PAYLOAD_BYTES`) and the HTTP API applies the same ones.
 */
import { NotJsonError, PayloadTooLargeError, ValueTooDeepError } from './json-bounds-errors.js';

/** The limits a value must stay within. */
export interface JsonLimits {
  /** Nested arrays/objects at most (`{}` is 1, `[[1]]` is 2, a scalar 0). */
  maxDepth: number;
  /** UTF-8 bytes of the value's JSON text at most. */
  maxBytes: number;
}

/** @default 128 nested arrays/objects (`FLOTILLA_MAX_JSON_DEPTH`). */
export const DEFAULT_MAX_JSON_DEPTH = 128;
/** The largest `FLOTILLA_MAX_JSON_DEPTH` accepted: JSON.stringify overflows near 4,500 levels. */
export const MAX_JSON_DEPTH_CEILING = 1000;
/** @default 1 MiB (`FLOTILLA_MAX_PAYLOAD_BYTES`). */
export const DEFAULT_MAX_PAYLOAD_BYTES = 1024 * 1024;
/** The limits a run gets when nothing configured them (embedded runs, tests). */
export const DEFAULT_JSON_LIMITS: Readonly<JsonLimits> = {
  maxDepth: DEFAULT_MAX_JSON_DEPTH,
  maxBytes: DEFAULT_MAX_PAYLOAD_BYTES,
};

/** The first limit a value broke. */
export type JsonBoundsProblem =
  | { kind: 'too-deep'; path: string }
  | { kind: 'too-large'; bytes: number }
  | { kind: 'not-json'; path: string; reason: string };

/** What {@link inspectJson} found. */
export interface JsonInspection {
  /** Bytes of JSON text counted (all of it when there is no problem). */
  bytes: number;
  /** Deepest nesting seen. */
  depth: number;
  problem?: JsonBoundsProblem;
}

/** Options of {@link inspectJson}; a limit left out is not checked. */
export interface InspectJsonOptions {
  maxDepth?: number;
  maxBytes?: number;
  /**
   * Count the value as JSON.stringify would write it instead of refusing what is not plain
   * JSON: `undefined`, functions and symbols are left out (`null` in arrays), NaN and
   * ±Infinity are `null`, a value with `toJSON` (a Date) is its JSON, other class instances are
   * their own enumerable fields. BigInts and cycles are still refused (JSON.stringify throws).
   * @default false
   */
  lenient?: boolean;
}

/** Keys a reported path names in full. */
const MAX_PATH_KEYS = 16;

interface Frame {
  container: object;
  /** Own enumerable keys of an object; `undefined` for an array. */
  keys: readonly string[] | undefined;
  length: number;
  next: number;
  written: number;
  /** This container's key in its parent; `undefined` for the value itself. */
  key: string | number | undefined;
}

/**
 * Walks `value` once, without recursion, and reports its JSON size and depth, or the first
 * limit it breaks. Never throws (a throwing getter or `toJSON` is reported as not JSON).
 */
export function inspectJson(value: unknown, options: InspectJsonOptions = {}): JsonInspection {
  const maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  const lenient = options.lenient ?? false;
  // A scalar (a tool's text output): no walk, so none of its state is made.
  if (typeof value !== 'object' || value === null) return inspectScalar(value, maxBytes, lenient);
  const stack: Frame[] = [];
  const open = new Set<object>();
  let bytes = 0;
  let depth = 0;

  const pathOf = (key: string | number | undefined): string => {
    const keys = stack.slice(1).map((frame) => String(frame.key));
    if (key !== undefined) keys.push(String(key));
    if (keys.length === 0) return '(root)';
    // A path through a deep value would be as long as the value: its ends say where it is.
    if (keys.length > MAX_PATH_KEYS)
      return `${keys.slice(0, 3).join('.')}.…(${keys.length - 6} more).${keys.slice(-3).join('.')}`;
    return keys.join('.');
  };

  /** Counts a leaf or opens a container; returns the problem, if any. */
  const visit = (child: unknown, key: string | number | undefined): JsonBoundsProblem | undefined => {
    const leaf = leafBytes(child, lenient);
    if (typeof leaf === 'number') {
      bytes += leaf;
      return undefined;
    }
    if (typeof leaf === 'string') return { kind: 'not-json', path: pathOf(key), reason: leaf };
    const container = child as object;
    if (open.has(container)) return { kind: 'not-json', path: pathOf(key), reason: 'circular reference' };
    if (stack.length + 1 > maxDepth) return { kind: 'too-deep', path: pathOf(key) };
    let keys: string[] | undefined;
    let length: number;
    try {
      keys = Array.isArray(container) ? undefined : Object.keys(container);
      length = keys ? keys.length : (container as unknown[]).length;
    } catch (error) {
      return { kind: 'not-json', path: pathOf(key), reason: describe(error) };
    }
    stack.push({ container, keys, length, next: 0, written: 0, key });
    open.add(container);
    depth = Math.max(depth, stack.length);
    bytes += 2;
    return undefined;
  };

  let problem = visit(value, undefined);
  while (problem === undefined && stack.length > 0) {
    if (bytes > maxBytes) break;
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next >= frame.length) {
      stack.pop();
      open.delete(frame.container);
      continue;
    }
    const index = frame.next++;
    const key = frame.keys ? (frame.keys[index] as string) : index;
    let child: unknown;
    try {
      child = (frame.container as Record<string | number, unknown>)[key];
    } catch (error) {
      problem = { kind: 'not-json', path: pathOf(key), reason: describe(error) };
      break;
    }
    if (frame.keys && lenient && isDropped(child)) continue;
    if (frame.written++ > 0) bytes += 1;
    if (frame.keys) bytes += stringBytes(key as string) + 1;
    problem = visit(child, key);
  }
  if (problem === undefined && bytes > maxBytes) problem = { kind: 'too-large', bytes };
  return problem ? { bytes, depth, problem } : { bytes, depth };
}

/** {@link inspectJson} of a value that is not an object (nor an array). */
function inspectScalar(value: unknown, maxBytes: number, lenient: boolean): JsonInspection {
  const leaf = leafBytes(value, lenient);
  if (typeof leaf === 'string')
    return { bytes: 0, depth: 0, problem: { kind: 'not-json', path: '(root)', reason: leaf } };
  const bytes = leaf as number;
  return bytes > maxBytes ? { bytes, depth: 0, problem: { kind: 'too-large', bytes } } : { bytes, depth: 0 };
}

/**
 * Checks that `value` is JSON within `limits`; `source` names where it came from in the error.
 * With `lenient`, the value is measured as JSON.stringify would write it (see {@link InspectJsonOptions}).
 * @returns the bytes of its JSON text
 * @throws ValueTooDeepError, PayloadTooLargeError or NotJsonError
 */
export function checkJsonBounds(
  value: unknown,
  source: string,
  limits: JsonLimits,
  options: { lenient?: boolean } = {},
): number {
  const inspection = inspectJson(value, {
    maxDepth: limits.maxDepth,
    maxBytes: limits.maxBytes,
    lenient: options.lenient ?? false,
  });
  if (inspection.problem) throw jsonBoundsError(inspection.problem, source, limits);
  return inspection.bytes;
}

/**
 * Whether `text`, JSON.stringify's output for some value, is within `limits`: its UTF-8 size
 * (at most its length × 3, else counted) and its nesting, read off the text with strings
 * skipped. Callers that stringify a value anyway check it this way first (one native pass and a
 * scan instead of a walk and then the stringify) and walk it ({@link inspectJson}, lenient) only
 * when this says no: the lenient walk accepts whatever JSON.stringify writes within the limits
 * (a `toJSON` value counts flat there, so the text may only be deeper, never shallower).
 */
export function jsonTextWithinBounds(text: string, limits: JsonLimits): boolean {
  if (text.length * 3 > limits.maxBytes && Buffer.byteLength(text, 'utf8') > limits.maxBytes) return false;
  let depth = 0;
  for (let at = 0; at < text.length; at++) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      // A string: on to its closing quote, the first one no backslash escapes.
      let end = text.indexOf('"', at + 1);
      while (end !== -1 && isEscaped(text, end)) end = text.indexOf('"', end + 1);
      if (end === -1) return false;
      at = end;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > limits.maxDepth) return false;
    } else if (code === 0x7d || code === 0x5d) depth--;
  }
  return true;
}

/** Whether the character at `at` follows an odd number of backslashes. */
function isEscaped(text: string, at: number): boolean {
  let backslashes = 0;
  for (let before = at - 1; text.charCodeAt(before) === 0x5c; before--) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * Parses JSON text within `limits`: its size is checked before parsing (JSON.parse itself does
 * not recurse), its depth after.
 * @throws PayloadTooLargeError or ValueTooDeepError naming `source`
 * @throws SyntaxError when `text` is not JSON (the caller says what that means at its boundary)
 */
export function parseBoundedJson(text: string, source: string, limits: JsonLimits): unknown {
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > limits.maxBytes) throw new PayloadTooLargeError(bytes, limits.maxBytes, source);
  const value: unknown = JSON.parse(text);
  // The text is JSON: its nesting, read off it, is the value's. The walk runs only to name the
  // path of a value that is too deep.
  const depthOnly = { maxDepth: limits.maxDepth, maxBytes: Number.POSITIVE_INFINITY };
  if (!jsonTextWithinBounds(text, depthOnly)) checkJsonBounds(value, source, depthOnly);
  return value;
}

/** The typed error for `problem`. */
export function jsonBoundsError(
  problem: JsonBoundsProblem,
  source: string,
  limits: JsonLimits,
): ValueTooDeepError | PayloadTooLargeError | NotJsonError {
  switch (problem.kind) {
    case 'too-deep':
      return new ValueTooDeepError(source, problem.path, limits.maxDepth);
    case 'too-large':
      return new PayloadTooLargeError(problem.bytes, limits.maxBytes, source);
    case 'not-json':
      return new NotJsonError(source, problem.path, problem.reason);
  }
}

/** Bytes of a leaf, a reason it is not JSON, or `undefined` for a container to walk. */
function leafBytes(value: unknown, lenient: boolean): number | string | undefined {
  switch (typeof value) {
    case 'string':
      return stringBytes(value);
    case 'boolean':
      return value ? 4 : 5;
    case 'number':
      if (Number.isFinite(value)) return String(value).length;
      return lenient ? 4 : String(value);
    case 'bigint':
      return 'bigint';
    case 'undefined':
    case 'function':
    case 'symbol':
      // Reached only at the top or in an array when lenient: JSON.stringify writes null there.
      return lenient ? 4 : typeof value;
  }
  if (value === null) return 4;
  if (Array.isArray(value)) return undefined;
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Object.prototype || prototype === null) return undefined;
  if (!lenient) return `class:${(value as object).constructor?.name ?? 'unknown'}`;
  if (typeof (value as { toJSON?: unknown }).toJSON !== 'function') return undefined;
  try {
    // A toJSON value (a Date's string) is flat in practice; bounded by the caller's try anyway.
    const text = JSON.stringify(value) as string | undefined;
    return text === undefined ? 4 : Buffer.byteLength(text, 'utf8');
  } catch (error) {
    return describe(error);
  }
}

function isDropped(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

// Quotes, backslashes, control characters and surrogates need JSON.stringify's escaping rules.
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is looked for
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/;

function stringBytes(text: string): number {
  if (!NEEDS_ESCAPING.test(text)) return Buffer.byteLength(text, 'utf8') + 2;
  return Buffer.byteLength(JSON.stringify(text), 'utf8');
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
