/**
 * Errors cross process and job boundaries as data. {@link serializeError} turns any thrown
 * value into a JSON-safe {@link SerializedError}; {@link deserializeError} rebuilds an `Error`
 * whose `name`, `message`, extra properties and `cause` chain are the original's, so name-based
 * guards (`XxxError.is(e)`) keep working on the other side. `instanceof` does not survive the
 * trip: always recognise errors by `name`.
 */

import { FlotillaError, markAsFlotillaError, ownJsonFields } from '@flotilla/ir';
import { redactSecrets, redactValue } from '../shared/redact-secrets.js';

/** A thrown value as JSON. `data` holds the error's own extra properties (`status`, `path` …). */
export interface SerializedError {
  name: string;
  message: string;
  stack?: string;
  data?: Record<string, unknown>;
  cause?: SerializedError;
  /** Set when the error was a {@link FlotillaError}, so the rebuilt one passes `XxxError.is`. */
  flotilla?: true;
}

/** How deep a `cause` chain is followed; deeper causes are cut (cycles end here too). */
const MAX_CAUSE_DEPTH = 8;
const STANDARD_KEYS = new Set(['name', 'message', 'stack', 'cause']);

/**
 * Turns a thrown value into a {@link SerializedError}. Non-`Error` values become
 * `{ name: 'NonError', message: String(value) }`; properties that are not JSON
 * (functions, cycles, BigInt) are left out rather than failing the whole error. Credentials in
 * the message, stack and fields (a provider error that echoes its API key) are redacted
 * (`redactSecrets`), since serialized errors are stored in run records and events.
 */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) {
    return { name: 'NonError', message: redactSecrets(describeNonError(error)) };
  }
  const serialized: SerializedError = { name: error.name, message: redactSecrets(error.message) };
  if (error.stack !== undefined) serialized.stack = redactSecrets(error.stack);
  const data = ownJsonFields(error);
  if (Object.keys(data).length > 0) serialized.data = redactValue(data) as Record<string, unknown>;
  if (FlotillaError.is(error)) serialized.flotilla = true;
  if (error.cause !== undefined && depth < MAX_CAUSE_DEPTH) {
    serialized.cause = serializeError(error.cause, depth + 1);
  }
  return serialized;
}

/**
 * Rebuilds an `Error` from a {@link SerializedError}: same `name` (an own property, so it is
 * exact even for names this process has no class for), message, stack, `data` properties copied
 * onto the error, and `cause` rebuilt recursively.
 */
export function deserializeError(serialized: SerializedError): Error {
  const options = serialized.cause === undefined ? undefined : { cause: deserializeError(serialized.cause) };
  const error = new Error(serialized.message, options);
  for (const [key, value] of Object.entries(serialized.data ?? {})) {
    if (!STANDARD_KEYS.has(key))
      Object.defineProperty(error, key, { value, enumerable: true, writable: true });
  }
  Object.defineProperty(error, 'name', { value: serialized.name, enumerable: false, writable: true });
  if (serialized.stack !== undefined) error.stack = serialized.stack;
  if (serialized.flotilla === true) markAsFlotillaError(error);
  return error;
}

/** `true` when `value` has the shape of a {@link SerializedError} (used when reading from Redis). */
export function isSerializedError(value: unknown): value is SerializedError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return typeof candidate.name === 'string' && typeof candidate.message === 'string';
}

function describeNonError(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
