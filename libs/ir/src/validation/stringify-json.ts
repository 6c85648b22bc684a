import { IRValidationError } from '../errors.js';

/**
 * `JSON.stringify` for values read from input (tool-call arguments, function responses), where
 * a missing value means "no arguments": `undefined` gives `'{}'`.
 * @throws {IRValidationError} naming `path` when the value cannot be serialised (a cycle, a
 * BigInt), instead of the bare `TypeError` that `JSON.stringify` throws.
 */
export function stringifyJson(value: unknown, path: string): string {
  if (value === undefined) return '{}';
  try {
    return JSON.stringify(value) ?? '{}';
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new IRValidationError(path, `expected a JSON value, but it cannot be serialised (${reason})`);
  }
}
