import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * Thrown by the fleet memo when deps or a computed value are not plain JSON (undefined other
 * than as an object property, functions, symbols, BigInt, NaN/Infinity, class instances such
 * as Date/Map, cycles, a `__proto__` key: the portable rules of `json/canonical-json.ts`).
 * Fleet memo values cross processes through Redis, so only JSON survives the trip.
 */
export class FleetMemoValueError extends FlotillaError {
  static override readonly errorName = 'FleetMemoValueError';
  static override readonly is = errorGuard(this);
  /** JSON path of the offending value, e.g. `$.tools[2].schema`. */
  readonly path: string;
  /** Why the value was rejected, e.g. `undefined`, `class:Date`, `circular reference`. */
  readonly reason: string;

  /** @param cause the `NonPortableJsonError` this refusal comes from, if any. */
  constructor(what: string, path: string, reason: string, cause?: unknown) {
    super(
      `Fleet memo ${what} must be plain JSON, but the value at "${path}" is not (${reason}). ` +
        'Convert it to strings, finite numbers, booleans, null, arrays and plain objects first.',
      { cause },
    );
    this.path = path;
    this.reason = reason;
  }
}
