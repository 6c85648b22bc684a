import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A value that must hash the same on every worker (a fingerprint, a child run id, a fleet memo
 * key or value) holds something with no faithful JSON form: a Date, a Map, a function, NaN, a
 * cycle … See `canonical-json.ts` for the rules.
 */
export class NonPortableJsonError extends FlotillaError {
  static override readonly errorName = 'NonPortableJsonError';
  static override readonly is = errorGuard(this);
  /** JSON path of the offending value, e.g. `$.tools[2].schema` (`$` is the value itself). */
  readonly path: string;
  /** Why the value was refused, e.g. `undefined`, `class:Date`, `NaN`, `circular reference`. */
  readonly reason: string;

  constructor(what: string, path: string, reason: string) {
    super(
      `${what} must be plain JSON to hash the same on every worker, but the value at "${path}" is not ` +
        `(${reason}). Convert it to strings, finite numbers, booleans, null, arrays and plain objects first.`,
    );
    this.path = path;
    this.reason = reason;
  }
}
