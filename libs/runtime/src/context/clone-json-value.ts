/**
 * Agent memory, memo deps, scope values and tool outputs must be JSON: they are stored in Redis
 * and replayed on other workers. This module finds the first non-JSON value in a structure and
 * clones JSON values, with errors that say where the bad value is and what it was.
 */

/** Where a value stops being JSON and why (`undefined`, `function`, `class:Date`, `circular reference` …). */
export interface NonJsonLocation {
  /** Dotted path, `(root)` for the value itself. */
  path: string;
  reason: string;
}

/** The first non-JSON value inside `value`, or `undefined` when it is all JSON. */
export function findNonJson(value: unknown): NonJsonLocation | undefined {
  return visit(value, '(root)', new Set());
}

/**
 * A deep copy of a JSON value.
 * @throws TypeError naming `context`, the path and the reason when `value` is not JSON.
 */
export function cloneJsonValue<T>(value: T, context: string): T {
  assertJsonValue(value, context);
  return structuredClone(value);
}

/**
 * @throws TypeError naming `context`, the path and the reason when `value` is not JSON.
 */
export function assertJsonValue(value: unknown, context: string): void {
  const problem = findNonJson(value);
  if (problem) {
    throw new TypeError(
      `${context}: invalid serializable value at "${problem.path}". Reason: ${problem.reason}. Only JSON values ` +
        'are allowed (string, finite number, boolean, null, plain object, array).',
    );
  }
}

function visit(value: unknown, path: string, seen: Set<object>): NonJsonLocation | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isFinite(value) ? undefined : { path, reason: String(value) };
  if (typeof value !== 'object') return { path, reason: typeof value };
  if (seen.has(value)) return { path, reason: 'circular reference' };
  if (Array.isArray(value)) return visitEntries(value.entries(), path, seen, value);
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    return { path, reason: `class:${value.constructor?.name ?? 'unknown'}` };
  }
  return visitEntries(Object.entries(value), path, seen, value);
}

function visitEntries(
  entries: Iterable<[string | number, unknown]>,
  path: string,
  seen: Set<object>,
  container: object,
): NonJsonLocation | undefined {
  seen.add(container);
  for (const [key, child] of entries) {
    const childPath = path === '(root)' ? String(key) : `${path}.${key}`;
    const problem = visit(child, childPath, seen);
    if (problem) return problem;
  }
  seen.delete(container);
  return undefined;
}
