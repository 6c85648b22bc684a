import { FleetMemoValueError } from './fleet-memo-value-error.js';

/**
 * Serialises a JSON value with object keys sorted, so structurally equal values give the same
 * text (and the same hash) whatever order their keys were written in.
 *
 * @param what names the value in the error message (`deps`, `value of "tools"`).
 * @throws {FleetMemoValueError} when anything inside is not plain JSON.
 */
export function canonicalJson(value: unknown, what: string): string {
  return write(value, '$', new Set(), what);
}

function write(value: unknown, path: string, ancestors: Set<object>, what: string): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new FleetMemoValueError(what, path, String(value));
    return JSON.stringify(value);
  }
  if (typeof value !== 'object') throw new FleetMemoValueError(what, path, typeof value);
  if (ancestors.has(value)) throw new FleetMemoValueError(what, path, 'circular reference');
  ancestors.add(value);
  try {
    if (Array.isArray(value)) {
      return `[${value.map((item, index) => write(item, `${path}[${index}]`, ancestors, what)).join(',')}]`;
    }
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) {
      throw new FleetMemoValueError(what, path, `class:${value.constructor?.name ?? 'unknown'}`);
    }
    const record = value as Record<string, unknown>;
    const fields = Object.keys(record)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${write(record[key], `${path}.${key}`, ancestors, what)}`);
    return `{${fields.join(',')}}`;
  } finally {
    ancestors.delete(value);
  }
}
