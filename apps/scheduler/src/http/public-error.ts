/**
 * What a client sees of an error: `name`, `message`, `data` (and the same of its `cause`),
 * never a stack (server paths, library versions) — stacks go to the scheduler's log only.
 * Used for the API's own error answers and for the errors stored in run records and events.
 */
import { redactSecrets, redactValue } from '@flotilla/runtime/internals';
import { errorStatus } from './error-status.js';

/** An error as the API answers it. */
export interface PublicError {
  name: string;
  message: string;
  data?: Record<string, unknown>;
  cause?: PublicError;
}

/** How deep a stored `cause` chain is passed on. */
const MAX_CAUSE_DEPTH = 8;

/** `{ name, message, data?, cause? }` of a stored (serialized) error, without its stack. */
export function publicStoredError(value: unknown, depth = 0): PublicError | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const stored = value as Record<string, unknown>;
  if (typeof stored.name !== 'string' || typeof stored.message !== 'string') return undefined;
  const error: PublicError = { name: stored.name, message: stored.message };
  if (typeof stored.data === 'object' && stored.data !== null)
    error.data = stored.data as Record<string, unknown>;
  const cause = depth < MAX_CAUSE_DEPTH ? publicStoredError(stored.cause, depth + 1) : undefined;
  if (cause) error.cause = cause;
  return error;
}

/** `value` (a run record or event) with its `error` field made public (stack left out). */
export function withPublicError<T extends object>(value: T): T {
  if (!('error' in value) || value.error === undefined) return value;
  return { ...value, error: publicStoredError(value.error) };
}

/**
 * The answer body for an error the API throws: typed errors by their name, message and own
 * fields (redacted); anything unexpected (500) as `InternalServerError`, its details in the log.
 */
export function errorAnswer(error: unknown): { status: number; body: { error: PublicError } } {
  const status = errorStatus(error);
  if (status === 500 || !(error instanceof Error))
    return {
      status: 500,
      body: {
        error: {
          name: 'InternalServerError',
          message: 'The scheduler failed to answer; the reason is in its log.',
        },
      },
    };
  const body: PublicError = { name: error.name, message: redactSecrets(error.message) };
  const data = ownFields(error);
  if (Object.keys(data).length > 0) body.data = redactValue(data) as Record<string, unknown>;
  return { status, body: { error: body } };
}

const STANDARD_KEYS = new Set(['name', 'message', 'stack', 'cause']);

/** The error's own enumerable fields that JSON can carry (`limitBytes`, `runId` …). */
function ownFields(error: Error): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(error).filter(
      ([key, value]) =>
        !STANDARD_KEYS.has(key) &&
        value !== undefined &&
        typeof value !== 'function' &&
        typeof value !== 'bigint',
    ),
  );
}
