import { IRValidationError } from '../errors.js';
import { describeValue } from './describe-value.js';

/** A plain JSON-like object read from untrusted input. */
export type InputRecord = Record<string, unknown>;

/**
 * Reads `value` as an object (not null, not an array).
 * @param expected - what the payload should have held there, for the message.
 * @throws {IRValidationError} naming `path` when `value` is anything else.
 */
export function expectRecord(value: unknown, path: string, expected = 'an object'): InputRecord {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as InputRecord;
  throw mismatch(path, expected, value);
}

/**
 * Reads `value` as an array.
 * @throws {IRValidationError} naming `path` when `value` is not an array.
 */
export function expectArray(value: unknown, path: string, expected = 'an array'): unknown[] {
  if (Array.isArray(value)) return value;
  throw mismatch(path, expected, value);
}

/**
 * Reads `value` as a string (`''` allowed).
 * @throws {IRValidationError} naming `path` when `value` is not a string.
 */
export function expectString(value: unknown, path: string, expected = 'a string'): string {
  if (typeof value === 'string') return value;
  throw mismatch(path, expected, value);
}

/**
 * Reads an optional string: `undefined` and `null` (how SDKs spell "absent") give `undefined`.
 * @throws {IRValidationError} naming `path` when `value` is present but not a string.
 */
export function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  return expectString(value, path, 'a string (or nothing)');
}

/**
 * Reads `value` as one of a fixed set of strings (a role, a source type …).
 * @throws {IRValidationError} naming `path` and listing the allowed values otherwise.
 */
export function expectOneOf<const T extends string>(value: unknown, path: string, allowed: readonly T[]): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  const shown = typeof value === 'string' ? JSON.stringify(value) : describeValue(value);
  throw new IRValidationError(
    path,
    `expected one of ${allowed.map((a) => `'${a}'`).join(', ')}, got ${shown}`,
  );
}

function mismatch(path: string, expected: string, value: unknown): IRValidationError {
  return new IRValidationError(path, `expected ${expected}, got ${describeValue(value)}`);
}
