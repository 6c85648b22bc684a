import { describe, expect, it } from 'vitest';
import { IRValidationError } from '../errors.js';
import { expectArray, expectOneOf, expectRecord, expectString, optionalString } from './expect-value.js';
import { inputPath } from './input-path.js';
import { stringifyJson } from './stringify-json.js';

function thrown(action: () => unknown): IRValidationError {
  try {
    action();
  } catch (error) {
    if (IRValidationError.is(error)) return error;
    throw error;
  }
  throw new Error('expected an IRValidationError');
}

describe('inputPath', () => {
  it('builds the dotted and indexed path users see in errors', () => {
    const path = inputPath(inputPath(inputPath(inputPath('messages', 3), 'content'), 1), 'image_url');
    expect(path).toBe('messages[3].content[1].image_url');
  });

  it('quotes keys that are not identifiers', () => {
    expect(inputPath('headers', 'x-api-key')).toBe('headers["x-api-key"]');
  });
});

describe('reading unknown input', () => {
  it('returns values of the expected type unchanged', () => {
    const record = { a: 1 };
    expect(expectRecord(record, 'p')).toBe(record);
    expect(expectArray([1], 'p')).toEqual([1]);
    expect(expectString('', 'p')).toBe('');
    expect(optionalString(null, 'p')).toBeUndefined();
    expect(optionalString(undefined, 'p')).toBeUndefined();
    expect(expectOneOf('user', 'p', ['user', 'assistant'])).toBe('user');
  });

  it('rejects arrays and null where an object is expected, naming the path and what was found', () => {
    const error = thrown(() => expectRecord([], 'messages[0]'));
    expect(error.path).toBe('messages[0]');
    expect(error.message).toBe('messages[0]: expected an object, got an array');
    expect(thrown(() => expectRecord(null, 'm')).message).toBe('m: expected an object, got null');
  });

  it('says what should have been there', () => {
    const error = thrown(() =>
      expectString(42, 'messages[3].content[1].image_url.url', 'an http(s) or data: URL'),
    );
    expect(error.message).toBe(
      'messages[3].content[1].image_url.url: expected an http(s) or data: URL, got a number',
    );
    expect(thrown(() => expectArray(undefined, 'contents')).message).toBe(
      'contents: expected an array, got undefined (missing)',
    );
    expect(thrown(() => optionalString(false, 'p.name')).message).toBe(
      'p.name: expected a string (or nothing), got a boolean',
    );
  });

  it('lists the allowed values when a value is not one of them', () => {
    const error = thrown(() => expectOneOf('robot', 'messages[2].role', ['user', 'assistant']));
    expect(error.message).toBe(`messages[2].role: expected one of 'user', 'assistant', got "robot"`);
  });
});

describe('stringifyJson', () => {
  it('serialises values and treats a missing value as no arguments', () => {
    expect(stringifyJson({ city: 'Oslo' }, 'p')).toBe('{"city":"Oslo"}');
    expect(stringifyJson(undefined, 'p')).toBe('{}');
  });

  it('turns a cycle into an IRValidationError naming the path instead of a TypeError', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const error = thrown(() => stringifyJson(cyclic, 'messages[1].content[0].input'));
    expect(error.path).toBe('messages[1].content[0].input');
    expect(error.message).toMatch(/cannot be serialised/);
  });
});
