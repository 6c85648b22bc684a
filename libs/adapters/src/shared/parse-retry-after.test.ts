import { describe, expect, it } from 'vitest';
import { parseRetryAfter } from './parse-retry-after.js';

describe('parseRetryAfter', () => {
  it('prefers retry-after-ms, in seconds', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(1.5);
  });

  it('reads retry-after as seconds', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '20' }))).toBe(20);
  });

  it('reads retry-after as an HTTP date relative to now', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }), now)).toBe(30);
  });

  it('is undefined when the provider did not say or said nonsense', () => {
    expect(parseRetryAfter(undefined)).toBeUndefined();
    expect(parseRetryAfter(new Headers())).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });
});
