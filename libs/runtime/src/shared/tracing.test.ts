import { isSpanContextValid, trace } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { inSpan } from './tracing.js';

// With a provider registered, spans are covered by test/observability.
describe('inSpan without a tracer provider', () => {
  it('runs the work with an unrecorded span and returns its value', async () => {
    expect(trace.getActiveSpan()).toBeUndefined();
    const value = await inSpan('flotilla.test', { a: 1 }, async (span) => {
      expect(span.isRecording()).toBe(false);
      expect(isSpanContextValid(span.spanContext())).toBe(false);
      span.setAttribute('b', 2).addEvent('e').end();
      return 42;
    });
    expect(value).toBe(42);
  });

  it('rethrows what the work throws', async () => {
    const error = new Error('boom');
    await expect(
      inSpan('flotilla.test', {}, async () => {
        throw error;
      }),
    ).rejects.toBe(error);
  });
});
