import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { jsonSchemaToZod } from './json-schema-to-zod.js';

describe('jsonSchemaToZod', () => {
  const readFile = jsonSchemaToZod({
    type: 'object',
    properties: {
      path: { type: 'string', description: 'Path of the file to read' },
      head: { type: 'integer', minimum: 1 },
      encoding: { type: 'string', enum: ['utf8', 'base64'], default: 'utf8' },
    },
    required: ['path'],
  });

  it('accepts arguments that satisfy required properties, types and enums', () => {
    expect(readFile.parse({ path: '/tmp/a.txt', head: 3, encoding: 'base64' })).toEqual({
      path: '/tmp/a.txt',
      head: 3,
      encoding: 'base64',
    });
  });

  it('fills defaults the model left out', () => {
    expect(readFile.parse({ path: '/tmp/a.txt' })).toEqual({ path: '/tmp/a.txt', encoding: 'utf8' });
  });

  it('rejects a missing required property, a wrong type, an integer bound and an enum miss', () => {
    expect(readFile.safeParse({}).success).toBe(false);
    expect(readFile.safeParse({ path: 42 }).success).toBe(false);
    expect(readFile.safeParse({ path: 'a', head: 0 }).success).toBe(false);
    expect(readFile.safeParse({ path: 'a', head: 1.5 }).success).toBe(false);
    expect(readFile.safeParse({ path: 'a', encoding: 'latin1' }).success).toBe(false);
  });

  it('keeps descriptions, so the model sees them in the generated JSON Schema', () => {
    const json = z.toJSONSchema(readFile) as unknown as { properties: { path: { description?: string } } };
    expect(json.properties.path.description).toBe('Path of the file to read');
  });

  it('keeps unknown properties unless additionalProperties is false', () => {
    const open = jsonSchemaToZod({ type: 'object', properties: { a: { type: 'string' } } });
    expect(open.parse({ a: 'x', extra: 1 })).toEqual({ a: 'x', extra: 1 });
    const closed = jsonSchemaToZod({
      type: 'object',
      properties: { a: { type: 'string' } },
      additionalProperties: false,
    });
    expect(closed.parse({ a: 'x', extra: 1 })).toEqual({ a: 'x' });
    const typedExtras = jsonSchemaToZod({ type: 'object', additionalProperties: { type: 'number' } });
    expect(typedExtras.safeParse({ n: 'not a number' }).success).toBe(false);
  });

  it('converts nested objects and arrays of objects', () => {
    const edits = jsonSchemaToZod({
      type: 'object',
      properties: {
        edits: {
          type: 'array',
          minItems: 1,
          items: {
            type: 'object',
            properties: { oldText: { type: 'string' }, newText: { type: 'string' } },
            required: ['oldText', 'newText'],
          },
        },
      },
      required: ['edits'],
    });
    expect(edits.safeParse({ edits: [{ oldText: 'a', newText: 'b' }] }).success).toBe(true);
    expect(edits.safeParse({ edits: [] }).success).toBe(false);
    expect(edits.safeParse({ edits: [{ oldText: 'a' }] }).success).toBe(false);
  });

  it('treats anyOf and oneOf as unions and type lists / nullable as nullable values', () => {
    const id = jsonSchemaToZod({ anyOf: [{ type: 'string' }, { type: 'number' }] });
    expect(id.safeParse('a').success && id.safeParse(1).success).toBe(true);
    expect(id.safeParse(true).success).toBe(false);
    const mode = jsonSchemaToZod({ oneOf: [{ const: 'fast' }, { const: 'slow' }] });
    expect(mode.safeParse('slow').success).toBe(true);
    expect(mode.safeParse('medium').success).toBe(false);
    expect(jsonSchemaToZod({ type: ['string', 'null'] }).safeParse(null).success).toBe(true);
    expect(jsonSchemaToZod({ type: 'string', nullable: true }).safeParse(null).success).toBe(true);
    expect(jsonSchemaToZod({ type: 'string' }).safeParse(null).success).toBe(false);
  });

  it('converts enums of numbers and mixed primitives to literals', () => {
    const level = jsonSchemaToZod({ enum: [1, 2, 'max', null] });
    expect(level.safeParse('max').success && level.safeParse(null).success).toBe(true);
    expect(level.safeParse(3).success).toBe(false);
  });

  it('degrades $ref, tuples and unknown types to values it accepts, and reports where', () => {
    const reported: string[] = [];
    const schema = jsonSchemaToZod(
      {
        type: 'object',
        properties: {
          node: { $ref: '#/$defs/node' },
          pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }] },
          odd: { type: 'decimal' },
        },
        required: ['node', 'pair', 'odd'],
      },
      { onUnsupported: (path, construct) => reported.push(`${path} ${construct}`) },
    );
    expect(schema.parse({ node: { any: 'thing' }, pair: ['a', 1], odd: 3 })).toEqual({
      node: { any: 'thing' },
      pair: ['a', 1],
      odd: 3,
    });
    expect(reported).toEqual([
      '$.properties.node $ref #/$defs/node',
      '$.properties.pair tuple items',
      '$.properties.odd type:"decimal"',
    ]);
  });

  it('accepts anything for an empty or boolean schema and skips patterns JavaScript rejects', () => {
    expect(jsonSchemaToZod({}).safeParse({ x: [1] }).success).toBe(true);
    expect(jsonSchemaToZod(true).safeParse('x').success).toBe(true);
    expect(jsonSchemaToZod(false).safeParse('x').success).toBe(false);
    expect(jsonSchemaToZod({ type: 'string', pattern: '(?<!x' }).safeParse('y').success).toBe(true);
    expect(jsonSchemaToZod({ type: 'string', pattern: '^a+$' }).safeParse('b').success).toBe(false);
  });
});
