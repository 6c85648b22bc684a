import { describe, expect, it } from 'vitest';
import { ModelCallError } from '../model/model-call-error.js';
import { deserializeError, isSerializedError, serializeError } from './serialize-error.js';

class TripError extends Error {
  override readonly name = 'TripError';
  readonly code = 'E_TRIP';
  static is(error: unknown): error is TripError {
    return error instanceof Error && error.name === 'TripError';
  }
}

describe('serializeError / deserializeError', () => {
  it('keeps name, message and extra properties so name guards still match', () => {
    const original = new ModelCallError({
      provider: 'mock',
      modelId: 'm',
      message: 'rate limited',
      status: 429,
    });
    const wire = JSON.parse(JSON.stringify(serializeError(original)));
    const rebuilt = deserializeError(wire);
    expect(rebuilt.name).toBe('ModelCallError');
    expect(rebuilt.message).toBe('rate limited');
    expect(ModelCallError.is(rebuilt)).toBe(true);
    expect(rebuilt).toMatchObject({ status: 429, retryable: true, provider: 'mock' });
  });

  it('rebuilds the cause chain', () => {
    const root = new TripError('inner', { cause: new TypeError('deepest') });
    const outer = new Error('outer', { cause: root });
    const rebuilt = deserializeError(serializeError(outer));
    const cause = rebuilt.cause as Error;
    expect(TripError.is(cause)).toBe(true);
    expect((cause as unknown as { code: string }).code).toBe('E_TRIP');
    expect((cause.cause as Error).name).toBe('TypeError');
  });

  it('turns thrown non-errors into NonError with a readable message', () => {
    expect(serializeError('boom')).toEqual({ name: 'NonError', message: 'boom' });
    expect(serializeError({ code: 1 })).toEqual({ name: 'NonError', message: '{"code":1}' });
  });

  it('skips properties that have no JSON form instead of failing', () => {
    const error = Object.assign(new Error('x'), { callback: () => 1, big: 10n, ok: 'yes' });
    expect(serializeError(error).data).toEqual({ ok: 'yes' });
  });

  it('stops at a cyclic cause chain', () => {
    const a = new Error('a');
    const b = new Error('b', { cause: a });
    (a as { cause?: unknown }).cause = b;
    expect(() => JSON.stringify(serializeError(a))).not.toThrow();
  });

  it('recognises the serialized shape', () => {
    expect(isSerializedError({ name: 'X', message: 'y' })).toBe(true);
    expect(isSerializedError({ name: 'X' })).toBe(false);
    expect(isSerializedError('X')).toBe(false);
  });
});
