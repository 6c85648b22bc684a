import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A value is nested deeper than the runtime accepts (`FLOTILLA_MAX_JSON_DEPTH`). Deeper values
 * would overflow the stack of every JSON writer that sees them, so they are refused where they
 * enter: job input and scope, tool arguments from the model, tool output, events.
 */
export class ValueTooDeepError extends FlotillaError {
  static override readonly errorName = 'ValueTooDeepError';
  static override readonly is = errorGuard(this);
  /** Where the value came from, e.g. `the job input`, `the arguments of tool call "c1" from model "gpt"`. */
  readonly source: string;
  /** The path where the limit was passed, e.g. `a.0.b` (`(root)` is the value itself). */
  readonly path: string;
  readonly maxDepth: number;

  constructor(source: string, path: string, maxDepth: number) {
    super(
      `${capitalize(source)} is nested more than ${maxDepth} levels deep (at "${path}"); the runtime accepts at ` +
        `most ${maxDepth}. Flatten the value, or raise maxJsonDepth / FLOTILLA_MAX_JSON_DEPTH (at most 1000).`,
    );
    this.source = source;
    this.path = path;
    this.maxDepth = maxDepth;
  }
}

/**
 * A value's JSON text is larger than the runtime accepts (`FLOTILLA_MAX_PAYLOAD_BYTES`): a
 * run's input, tool arguments or output, a model answer, a scope layer …
 */
export class PayloadTooLargeError extends FlotillaError {
  static override readonly errorName = 'PayloadTooLargeError';
  static override readonly is = errorGuard(this);
  /** Bytes of JSON counted (for a value walked, counting stops just past the limit). */
  readonly bytes: number;
  readonly maxBytes: number;
  /** Where the value came from, e.g. `the run input`. */
  readonly source: string;

  constructor(bytes: number, maxBytes: number, source = 'the run input') {
    super(
      `${capitalize(source)} is ${bytes} bytes of JSON; workers accept at most ${maxBytes}. Pass large content by ` +
        'reference (a URL, a conversation id) or raise maxPayloadBytes / FLOTILLA_MAX_PAYLOAD_BYTES.',
    );
    this.bytes = bytes;
    this.maxBytes = maxBytes;
    this.source = source;
  }
}

/** A value that must be JSON is not: a function, `undefined`, NaN, a class instance, a cycle … */
export class NotJsonError extends FlotillaError {
  static override readonly errorName = 'NotJsonError';
  static override readonly is = errorGuard(this);
  readonly source: string;
  /** Where the bad value sits, `(root)` for the value itself. */
  readonly path: string;
  /** e.g. `undefined`, `class:Date`, `NaN`, `circular reference`, `bigint`. */
  readonly reason: string;

  constructor(source: string, path: string, reason: string) {
    super(
      `${capitalize(source)} is not JSON at "${path}" (${reason}). Only strings, finite numbers, booleans, null, ` +
        'arrays and plain objects are accepted.',
    );
    this.source = source;
    this.path = path;
    this.reason = reason;
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
