/**
 * The one canonical JSON writer: structurally equal values give the same text, whatever order
 * their keys were written in. Two modes, because hashes serve two different purposes:
 *
 * - **portable** ({@link portableJson}): journal fingerprints, child run ids, memo deps, fleet
 *   memo keys and values. The same bytes on every worker and Node version, or a
 *   {@link NonPortableJsonError} naming the JSON path; never a silently lossy text.
 * - **local** ({@link localJson}): the per-worker resource registry's deps hashes. Never throws:
 *   what JSON cannot hold is written as a tagged object, compared by identity where that is the
 *   only meaning it has (`{"$local":7}`), valid in this process only.
 *
 * Both modes: strings via JSON.stringify (lone surrogates escaped); finite numbers via
 * JSON.stringify (shortest round trip, `-0` → `0`, `1e21` → `1e+21`); arrays by index (other
 * properties of an array are ignored); plain objects (prototype `Object.prototype` or `null`)
 * by their own enumerable string keys (symbol keys ignored) in this order: array-index keys
 * (`"0"` … `"4294967294"`) ascending by number, then all other keys by UTF-16 code units. That
 * is the order JSON.stringify gives an object built by inserting the keys sorted, which is how
 * fingerprints were written before this module existed.
 *
 * | value | portable | local |
 * | --- | --- | --- |
 * | `undefined` property | left out | `{"$undefined":true}` |
 * | `undefined` in an array (or a hole), at the top | refused | `{"$undefined":true}` |
 * | `NaN`, `±Infinity` | refused | `{"$number":"NaN"}` |
 * | `bigint` | refused | `{"$bigint":"12"}` |
 * | function, symbol | refused | `{"$local":n}` (identity) |
 * | class instance (`Date`, `Map`, `Set`, boxed primitives …) | refused (`class:Date`) | `{"$local":n}` (identity) |
 * | cycle | refused (`circular reference`) | `{"$local":n}` for the repeated object |
 * | own `"__proto__"` key | refused | written like any key |
 *
 * What changed for fingerprints (format unchanged, no version needed): before, the fingerprint
 * writer copied values with keys sorted and ran JSON.stringify, so a Date, Map, Set or class
 * instance became its own enumerable fields (`{}` for a Date or Map), NaN/Infinity and array
 * holes became `null`, functions and symbols vanished (or became `null` in arrays), and an own
 * `__proto__` key vanished. Portable mode writes every other value byte for byte as before (the
 * tests pin literal hashes from the old writer) and refuses those instead. No recorded journal
 * can change meaning: every value fingerprinted on a worker was already plain JSON (tool
 * arguments are zod output of a schema that `equipTool` converts to JSON Schema, which refuses
 * dates, transforms and bigints; memo deps and child props are checked with `assertJsonValue`
 * first; model turns and child run ids hash strings and numbers), so only an embedded child
 * call could have recorded such a fingerprint, and its replay now fails at the call with
 * NonPortableJsonError instead of matching a lossy hash.
 */
import { NonPortableJsonError } from './non-portable-json-error.js';

/**
 * Canonical JSON text of a plain JSON value; `undefined` object properties are left out.
 * @param what names the value in the error (`props of child agent "writer"`).
 * @throws {NonPortableJsonError} when anything inside has no faithful JSON form (see the table above).
 */
export function portableJson(value: unknown, what = 'The value'): string {
  // Most fingerprinted values (a turn's position, model, tool names, prompt; `{}` arguments)
  // are canonical as they stand: one native JSON.stringify, no walk building text piece by piece.
  if (isCanonicalAsIs(value, 0)) return JSON.stringify(value);
  return writePortable(value, '$', new Set(), what);
}

/** Deeper than this the check gives up (a cycle, say) and the walk decides. */
const MAX_AS_IS_DEPTH = 32;

/**
 * Whether `JSON.stringify(value)` is already its portable canonical text: only strings,
 * booleans, `null`, finite numbers, plain arrays without holes and plain objects whose own keys
 * are in canonical order (none array-index-like, the rest ascending), none of them `__proto__`
 * and no value left out. Anything else — even what portable mode writes the same way (an
 * `undefined` property, keys out of order) — is left to {@link writePortable}, so this never
 * changes a text, only who writes it (`canonical-json.test.ts` compares both).
 */
export function isCanonicalAsIs(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  if (depth >= MAX_AS_IS_DEPTH) return false;
  const prototype = Object.getPrototypeOf(value);
  if (prototype === Array.prototype) {
    const array = value as unknown[];
    if ((array as { toJSON?: unknown }).toJSON !== undefined) return false;
    for (let index = 0; index < array.length; index++)
      if (!isCanonicalAsIs(array[index], depth + 1)) return false;
    return true;
  }
  if (prototype !== Object.prototype && prototype !== null) return false;
  const record = value as Record<string, unknown>;
  let previous: string | undefined;
  for (const key in record) {
    if (!Object.hasOwn(record, key) || key === '__proto__') return false;
    // A key starting with a digit may be an array index (ordered apart): the walk sorts those.
    const first = key.charCodeAt(0);
    if (first >= 0x30 && first <= 0x39) return false;
    if (previous !== undefined && !(previous < key)) return false;
    if (!isCanonicalAsIs(record[key], depth + 1)) return false;
    previous = key;
  }
  return true;
}

/** Canonical JSON text of anything; never throws. Tokens (`{"$local":n}`) mean something in this process only. */
export function localJson(value: unknown): string {
  return writeLocal(value, new Set());
}

function writePortable(value: unknown, path: string, ancestors: Set<object>, what: string): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new NonPortableJsonError(what, path, String(value));
    return JSON.stringify(value);
  }
  if (typeof value !== 'object') throw new NonPortableJsonError(what, path, typeof value);
  if (ancestors.has(value)) throw new NonPortableJsonError(what, path, 'circular reference');
  if (!Array.isArray(value) && !isPlainObject(value))
    throw new NonPortableJsonError(what, path, `class:${value.constructor?.name ?? 'unknown'}`);
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      const items: string[] = [];
      for (let index = 0; index < value.length; index++)
        items.push(writePortable(value[index], `${path}[${index}]`, ancestors, what));
      return `[${items.join(',')}]`;
    }
    const record = value as Record<string, unknown>;
    const fields: string[] = [];
    for (const key of canonicalKeys(record)) {
      // The old fingerprint writer lost this key (assigning it to a copy sets the prototype).
      if (key === '__proto__') throw new NonPortableJsonError(what, childPath(path, key), '"__proto__" key');
      if (record[key] === undefined) continue;
      fields.push(
        `${JSON.stringify(key)}:${writePortable(record[key], childPath(path, key), ancestors, what)}`,
      );
    }
    return `{${fields.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}

function writeLocal(value: unknown, ancestors: Set<object>): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number')
    return Number.isFinite(value) ? JSON.stringify(value) : `{"$number":"${String(value)}"}`;
  if (value === undefined) return '{"$undefined":true}';
  if (typeof value === 'bigint') return `{"$bigint":"${value.toString()}"}`;
  if (typeof value === 'symbol') return `{"$local":${symbolToken(value)}}`;
  if (typeof value === 'function') return `{"$local":${objectToken(value)}}`;
  const object = value as object;
  // Class instances and cycles are compared by identity, like a resource slot's Object.is check.
  if ((!Array.isArray(object) && !isPlainObject(object)) || ancestors.has(object))
    return `{"$local":${objectToken(object)}}`;
  ancestors.add(object);
  try {
    if (Array.isArray(object)) {
      const items: string[] = [];
      for (let index = 0; index < object.length; index++) items.push(writeLocal(object[index], ancestors));
      return `[${items.join(',')}]`;
    }
    const record = object as Record<string, unknown>;
    const fields = canonicalKeys(record).map(
      (key) => `${JSON.stringify(key)}:${writeLocal(record[key], ancestors)}`,
    );
    return `{${fields.join(',')}}`;
  } finally {
    ancestors.delete(object);
  }
}

function isPlainObject(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

const MAX_ARRAY_INDEX = 2 ** 32 - 2;
const CANONICAL_INTEGER = /^(?:0|[1-9]\d*)$/;

/** Array-index keys ascending by number, then the other keys by UTF-16 code units. */
function canonicalKeys(record: object): string[] {
  const indices: string[] = [];
  const names: string[] = [];
  for (const key of Object.keys(record)) {
    if (CANONICAL_INTEGER.test(key) && Number(key) <= MAX_ARRAY_INDEX) indices.push(key);
    else names.push(key);
  }
  indices.sort((a, b) => Number(a) - Number(b));
  return [...indices, ...names.sort()];
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function childPath(path: string, key: string): string {
  return IDENTIFIER.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

const localTokens = new WeakMap<object, number>();
const symbolTokens = new Map<symbol, number>();
let nextToken = 1;

function objectToken(object: object): number {
  let token = localTokens.get(object);
  if (token === undefined) {
    token = nextToken++;
    localTokens.set(object, token);
  }
  return token;
}

function symbolToken(symbol: symbol): number {
  let token = symbolTokens.get(symbol);
  if (token === undefined) {
    token = nextToken++;
    symbolTokens.set(symbol, token);
  }
  return token;
}
