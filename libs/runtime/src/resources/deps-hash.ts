/**
 * Names a resource's deps for the per-worker registry: canonical JSON (object keys sorted) and
 * its hash. Deps may hold values that are not JSON (a function, a class instance, a symbol, a
 * bigint …); those are written as process-local reference tokens (`{"$local":7}`) by identity,
 * so the same value gives the same hash in this process and can never be rebuilt elsewhere.
 */
import { createHash } from 'node:crypto';

/** The canonical form of a deps array. */
export interface HashedDeps {
  /** Hex sha256 of {@link HashedDeps.json} (first 32 characters). */
  hash: string;
  /** Canonical JSON text of the deps. */
  json: string;
  /** The deps as JSON values (what `json` parses to). */
  value: unknown[];
}

const localTokens = new WeakMap<object, number>();
const symbolTokens = new Map<symbol, number>();
let nextToken = 1;

/** Hashes `deps` canonically; never throws (non-JSON values become local tokens). */
export function hashDeps(deps: readonly unknown[]): HashedDeps {
  const json = write(deps, new Set());
  const hash = createHash('sha256').update(json).digest('hex').slice(0, 32);
  return { hash, json, value: JSON.parse(json) as unknown[] };
}

function write(value: unknown, ancestors: Set<object>): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number')
    return Number.isFinite(value) ? JSON.stringify(value) : `{"$number":"${String(value)}"}`;
  if (value === undefined) return '{"$undefined":true}';
  if (typeof value === 'bigint') return `{"$bigint":"${value.toString()}"}`;
  if (typeof value === 'symbol') return `{"$local":${symbolToken(value)}}`;
  if (typeof value === 'function') return `{"$local":${objectToken(value)}}`;
  const object = value as object;
  const prototype = Object.getPrototypeOf(object);
  const plain = Array.isArray(object) || prototype === Object.prototype || prototype === null;
  // Class instances and cycles are compared by identity, like the slot's Object.is check.
  if (!plain || ancestors.has(object)) return `{"$local":${objectToken(object)}}`;
  ancestors.add(object);
  try {
    if (Array.isArray(object)) return `[${object.map((item) => write(item, ancestors)).join(',')}]`;
    const record = object as Record<string, unknown>;
    const fields = Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${write(record[key], ancestors)}`);
    return `{${fields.join(',')}}`;
  } finally {
    ancestors.delete(object);
  }
}

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
