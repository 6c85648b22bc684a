/**
 * Agent memory, memo deps, scope values and tool outputs must be JSON: they are stored in Redis
 * and replayed on other workers. This module finds the first non-JSON value in a structure and
 * clones JSON values, with errors that say where the bad value is and what it was.
 */
import { inspectJson } from '../json/json-bounds.js';

/** Where a value stops being JSON and why (`undefined`, `function`, `class:Date`, `circular reference` …). */
export interface NonJsonLocation {
  /** Dotted path, `(root)` for the value itself. */
  path: string;
  reason: string;
}

/** The first non-JSON value inside `value`, or `undefined` when it is all JSON. */
export function findNonJson(value: unknown): NonJsonLocation | undefined {
  // The bounds walker never recurses, so a value nested thousands deep cannot overflow here.
  const { problem } = inspectJson(value);
  return problem?.kind === 'not-json' ? { path: problem.path, reason: problem.reason } : undefined;
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
