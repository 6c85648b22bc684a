import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidJsonSchemaError } from '../errors/agent-errors.js';
import { jsonSchema } from './json-schema.js';
import { checkToolArguments, toolParametersJsonSchema } from './tool-parameters.js';
import { zodToJsonSchema } from './zod-to-json-schema.js';

/** Every construct the issue names, in one tool's parameters. */
const booking = jsonSchema({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    Address: {
      type: 'object',
      properties: { city: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } },
      required: ['city'],
      additionalProperties: false,
    },
    Node: {
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
      required: ['label'],
    },
  },
  properties: {
    addr: { $ref: '#/$defs/Address' },
    home: { type: 'object', properties: { addr: { $ref: '#/$defs/Address' } } },
    tree: { $ref: '#/$defs/Node' },
    pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
    id: {
      oneOf: [
        { type: 'string', format: 'uuid' },
        { type: 'integer', minimum: 1 },
      ],
    },
    size: { anyOf: [{ type: 'number' }, { type: 'null' }] },
    mode: { enum: ['fast', 'slow'] },
    kind: { const: 'search' },
    email: { type: 'string', format: 'email' },
    note: { type: ['string', 'null'] },
    legacy: { type: 'string', nullable: true },
  },
  required: ['addr', 'kind'],
  additionalProperties: false,
});

const valid = {
  addr: { city: 'Oslo', zip: '01234' },
  home: { addr: { city: 'Rome' } },
  tree: { label: 'a', children: [{ label: 'b', children: [{ label: 'c' }] }] },
  pair: ['x', 1],
  id: '123e4567-e89b-12d3-a456-426614174000',
  size: null,
  mode: 'fast',
  kind: 'search',
  email: 'a@example.com',
  note: null,
  legacy: null,
};

function issuesOf(value: unknown): string[] {
  const result = booking.safeParse(value);
  return result.success ? [] : result.issues.map((issue) => `${issue.path}: ${issue.message}`);
}

describe('jsonSchema', () => {
  it('accepts arguments the schema allows, unchanged', () => {
    expect(booking.safeParse(valid)).toEqual({ success: true, data: valid });
    expect(booking.safeParse({ addr: { city: 'Oslo' }, kind: 'search', id: 7 }).success).toBe(true);
  });

  it.each([
    ['a $ref target', { ...valid, addr: { city: 3 } }, 'addr.city: must be string'],
    ['a nested $ref', { ...valid, home: { addr: {} } }, 'home.addr.city: is required'],
    [
      'a recursive $ref three levels down',
      { ...valid, tree: { label: 'a', children: [{ label: 'b', children: [{}] }] } },
      'tree.children.0.children.0.label: is required',
    ],
    ['a tuple item', { ...valid, pair: ['x', 'y'] }, 'pair.1: must be number'],
    ['a tuple length', { ...valid, pair: ['x', 1, 2] }, 'pair: must NOT have more than 2 items'],
    ['a oneOf', { ...valid, id: 0 }, 'id: must match exactly one schema in oneOf'],
    ['an anyOf', { ...valid, size: 'big' }, 'size: must match a schema in anyOf'],
    ['an enum', { ...valid, mode: 'medium' }, 'mode: must be one of "fast", "slow"'],
    ['a const', { ...valid, kind: 'browse' }, 'kind: must be "search"'],
    ['a format', { ...valid, email: 'not-an-email' }, 'email: must match format "email"'],
    [
      'a pattern',
      { ...valid, addr: { city: 'Oslo', zip: 'abc' } },
      'addr.zip: must match pattern "^[0-9]{5}$"',
    ],
    ['a nullable type list', { ...valid, note: 3 }, 'note: must be string,null'],
    ['OpenAPI nullable', { ...valid, legacy: 3 }, 'legacy: must be string'],
    ['additionalProperties: false', { ...valid, extra: 1 }, 'extra: is not an allowed property'],
    ['a required property', { kind: 'search' }, 'addr: is required'],
  ])('refuses %s, naming the path', (_case, value, issue) => {
    expect(issuesOf(value)).toContain(issue);
  });

  it('reads draft-07 schemas, tuples written as items arrays included', () => {
    const legacy = jsonSchema({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      definitions: { Name: { type: 'string', minLength: 1 } },
      properties: {
        name: { $ref: '#/definitions/Name' },
        point: { type: 'array', items: [{ type: 'number' }] },
      },
    });
    expect(legacy.safeParse({ name: 'x', point: [1] }).success).toBe(true);
    expect(legacy.safeParse({ name: '', point: ['a'] })).toMatchObject({
      success: false,
      issues: [
        { path: 'name', message: 'must NOT have fewer than 1 characters' },
        { path: 'point.0', message: 'must be number' },
      ],
    });
  });

  it.each([
    ['an array', [], 'expected an object schema, got an array'],
    ['a string', 'object', 'expected an object schema, got string'],
    [
      'an unresolvable $ref',
      { type: 'object', properties: { a: { $ref: '#/$defs/Missing' } } },
      "can't resolve reference",
    ],
    [
      'a pattern JavaScript cannot read',
      { type: 'object', properties: { a: { type: 'string', pattern: '(?P<x>a)' } } },
      'Invalid regular expression',
    ],
  ])('refuses %s with InvalidJsonSchemaError', (_case, schema, reason) => {
    expect(() => jsonSchema(schema as Record<string, unknown>, 'tool "t"')).toThrow(InvalidJsonSchemaError);
    expect(() => jsonSchema(schema as Record<string, unknown>, 'tool "t"')).toThrow(reason);
  });

  it('refuses a schema nested past the depth bound', () => {
    let deep: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 200; level++) deep = { type: 'object', properties: { a: deep } };
    expect(() => jsonSchema(deep)).toThrow(/nests deeper than 128 levels/);
  });
});

describe('tool parameters', () => {
  it('shows the model a JSON Schema as written, without its $schema marker', () => {
    const { $schema: _dialect, ...written } = booking.jsonSchema;
    expect(toolParametersJsonSchema(booking, 'book')).toEqual(written);
  });

  it('checks zod parameters with zod (defaults apply) and JSON Schema ones with the schema', () => {
    const zodParameters = z.object({ n: z.number().int(), unit: z.string().default('m') });
    expect(checkToolArguments(zodParameters, { n: 1 })).toEqual({ success: true, data: { n: 1, unit: 'm' } });
    expect(checkToolArguments(zodParameters, { n: 1.5 })).toMatchObject({
      success: false,
      issues: [{ path: 'n' }],
    });
    expect(checkToolArguments(booking, { kind: 'search' })).toMatchObject({
      success: false,
      issues: [{ path: 'addr', message: 'is required' }],
    });
  });
});

describe('zodToJsonSchema', () => {
  it('adds no bounds the schema does not state', () => {
    const schema = zodToJsonSchema(
      z.object({ n: z.number().int(), atLeastOne: z.int().min(1), small: z.int32(), x: z.number() }),
      'test',
    );
    expect(schema.properties).toEqual({
      n: { type: 'integer' },
      atLeastOne: { type: 'integer', minimum: 1 },
      small: { type: 'integer', minimum: -2147483648, maximum: 2147483647 },
      x: { type: 'number' },
    });
    expect(schema).not.toHaveProperty('$schema');
  });
});
