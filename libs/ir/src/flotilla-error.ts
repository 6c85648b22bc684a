/**
 * The one base of every error Flotilla throws, in every package (it lives here, in the bottom
 * layer, so `ir`, `runtime`, `adapters` and the apps share it).
 *
 * - `name` is stable: each class states it once as `static readonly errorName`, and the
 *   constructor copies it onto the instance, so logs, events and serialized errors carry it.
 * - `is()` recognises an error by a registered-symbol marker plus its name, not by
 *   `instanceof` (two copies of a package in one process still agree) and not by name alone
 *   (the platform's own `AbortError` is not ours). An error rebuilt from its serialized form
 *   gets the marker back (`markAsFlotillaError`), so `XxxError.is` works across processes.
 * - `data` is the error's own structured fields, as JSON: what clients may see besides `name`
 *   and `message`.
 */

const FLOTILLA_ERROR = Symbol.for('flotilla.error');

/** Any Flotilla error class (what `is()` and `errorNameOf` take). */
export interface FlotillaErrorClass {
  readonly errorName: string;
}

export class FlotillaError extends Error {
  /** The stable `name` of this class's errors; every subclass declares its own. */
  static readonly errorName: string = 'FlotillaError';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    Object.defineProperty(this, 'name', {
      value: (new.target as unknown as FlotillaErrorClass).errorName,
      enumerable: false,
      writable: true,
      configurable: true,
    });
    markAsFlotillaError(this);
  }

  /** The error's own fields (`path`, `status`, `issues` …) as JSON; empty when it has none. */
  get data(): Record<string, unknown> {
    return ownJsonFields(this);
  }

  /**
   * `true` when `error` is a Flotilla error (any class). Each subclass has its own `is`, made by
   * {@link errorGuard}; they work unbound (`errors.filter(AbortError.is)`) and on errors rebuilt
   * from their serialized form.
   */
  static readonly is: (error: unknown) => error is FlotillaError = (error): error is FlotillaError =>
    isMarked(error);
}

/**
 * The `is` guard of a Flotilla error class: `static override readonly is = errorGuard(this);`.
 * Matches by marker and name, never by `instanceof` alone.
 */
export function errorGuard<T extends FlotillaError>(
  errorClass: FlotillaErrorClass & (abstract new (...args: never[]) => T),
): (error: unknown) => error is T {
  return (error: unknown): error is T => isMarked(error) && (error as Error).name === errorClass.errorName;
}

/** Marks a rebuilt error (e.g. from a journal) as a Flotilla error, so `XxxError.is` accepts it. */
export function markAsFlotillaError(error: Error): void {
  Object.defineProperty(error, FLOTILLA_ERROR, { value: true, enumerable: false, configurable: true });
}

function isMarked(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as Record<symbol, unknown>)[FLOTILLA_ERROR] === true &&
    typeof (error as Error).name === 'string'
  );
}

const STANDARD_KEYS = new Set(['name', 'message', 'stack', 'cause']);

/** Own enumerable fields of an error that have a JSON form (functions, cycles, BigInt are left out). */
export function ownJsonFields(error: Error): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(error)) {
    if (STANDARD_KEYS.has(key)) continue;
    const value = toJsonValue((error as unknown as Record<string, unknown>)[key]);
    if (value !== undefined) data[key] = value;
  }
  return data;
}

/** A JSON round trip of `value`, or `undefined` when it has no JSON form. */
function toJsonValue(value: unknown): unknown {
  try {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
}
