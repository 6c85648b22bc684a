import { describe, expect, it } from 'vitest';
import { IRValidationError } from './errors.js';
import { errorGuard, FlotillaError, markAsFlotillaError } from './flotilla-error.js';

class TripError extends FlotillaError {
  static override readonly errorName = 'TripError';
  static override readonly is = errorGuard(this);
  readonly leg: number;
  constructor(leg: number) {
    super(`leg ${leg} failed`);
    this.leg = leg;
  }
}

class AbortError extends FlotillaError {
  static override readonly errorName = 'AbortError';
  static override readonly is = errorGuard(this);
}

describe('FlotillaError', () => {
  it('gives every instance its class name, its own fields as data, and an unbound is()', () => {
    const error = new TripError(3);
    expect(error.name).toBe('TripError');
    expect(error.message).toBe('leg 3 failed');
    expect(error.data).toEqual({ leg: 3 });
    expect([error, new Error('x')].filter(TripError.is)).toEqual([error]);
    expect(FlotillaError.is(error)).toBe(true);
    expect(IRValidationError.is(error)).toBe(false);
  });

  it('does not take a platform error of the same name for its own', () => {
    const platform = new DOMException('The operation was aborted.', 'AbortError');
    expect(platform.name).toBe('AbortError');
    expect(AbortError.is(platform)).toBe(false);
    const named = Object.assign(new Error('x'), { name: 'AbortError' });
    expect(AbortError.is(named)).toBe(false);
    expect(FlotillaError.is(named)).toBe(false);
  });

  it('accepts a rebuilt error once it is marked (as deserializeError does)', () => {
    const rebuilt = Object.assign(new Error('leg 3 failed'), { name: 'TripError' });
    markAsFlotillaError(rebuilt);
    expect(TripError.is(rebuilt)).toBe(true);
    expect(AbortError.is(rebuilt)).toBe(false);
  });

  it('keeps the cause it was given', () => {
    const cause = new Error('root');
    const error = new IRValidationError('messages[0]', 'bad');
    const wrapped = new (class extends FlotillaError {
      static override readonly errorName = 'Wrapped';
    })('outer', { cause });
    expect(wrapped.cause).toBe(cause);
    expect(error.data).toEqual({ path: 'messages[0]' });
  });
});
