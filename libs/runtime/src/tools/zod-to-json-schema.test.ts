import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { zodToJsonSchema } from './zod-to-json-schema.js';

describe('zodToJsonSchema', () => {
  it('converts a schema once and gives every caller its own copy', () => {
    const schema = z.object({ city: z.string(), tags: z.array(z.string()).optional() });
    const first = zodToJsonSchema(schema, 'tool "a"');
    (first.properties as Record<string, unknown>).city = 'changed';
    (first.required as string[]).push('changed');
    const second = zodToJsonSchema(schema, 'tool "a"');
    expect(second).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['city'],
      additionalProperties: false,
    });
    expect(second).not.toBe(zodToJsonSchema(schema, 'tool "a"'));
  });

  it('copies a schema naming __proto__ as it converted it', () => {
    const schema = z.object({ ['__proto__']: z.string(), other: z.number() });
    const fresh = zodToJsonSchema(schema, 'tool "b"');
    const copy = zodToJsonSchema(schema, 'tool "b"');
    expect(Object.keys(copy.properties as object)).toEqual(Object.keys(fresh.properties as object));
    expect(Object.getPrototypeOf(copy.properties)).toBe(Object.prototype);
    expect(copy).toEqual(fresh);
  });
});
