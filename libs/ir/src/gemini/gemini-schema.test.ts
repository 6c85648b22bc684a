import { describe, expect, it } from 'vitest';
import type { CompileWarning } from '../types/target-adapter.js';
import { GeminiAdapter } from './compile-gemini.js';
import { type GeminiSchemaAdaptation, toGeminiSchema } from './gemini-schema.js';

const node = {
  type: 'object',
  properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
  required: ['label'],
};

function adapt(schema: Record<string, unknown>): {
  result: Record<string, unknown>;
  adaptations: GeminiSchemaAdaptation[];
} {
  const adaptations: GeminiSchemaAdaptation[] = [];
  const result = toGeminiSchema(schema, (adaptation) => adaptations.push(adaptation));
  return { result, adaptations };
}

describe('toGeminiSchema', () => {
  it('inlines nested $refs and reports each', () => {
    const { result, adaptations } = adapt({
      type: 'object',
      $defs: {
        City: { type: 'string', description: 'A city' },
        Address: { type: 'object', properties: { city: { $ref: '#/$defs/City' } } },
      },
      properties: { home: { type: 'object', properties: { addr: { $ref: '#/$defs/Address' } } } },
    });
    expect(result).toEqual({
      type: 'object',
      properties: {
        home: {
          type: 'object',
          properties: {
            addr: { type: 'object', properties: { city: { type: 'string', description: 'A city' } } },
          },
        },
      },
    });
    expect(adaptations).toEqual([
      {
        code: 'tool-schema-ref-inlined',
        path: '/properties/home/properties/addr',
        detail: '$ref #/$defs/Address',
      },
      {
        code: 'tool-schema-ref-inlined',
        path: '/properties/home/properties/addr/properties/city',
        detail: '$ref #/$defs/City',
      },
    ]);
  });

  it('cuts a recursive $ref after the stated depth, saying where', () => {
    const { result, adaptations } = adapt({
      type: 'object',
      $defs: { Node: node },
      properties: { tree: { $ref: '#/$defs/Node' } },
    });
    const level = (items: unknown) => ({
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items } },
      required: ['label'],
    });
    expect(result).toEqual({ type: 'object', properties: { tree: level(level(level({ type: 'object' }))) } });
    expect(adaptations.filter((adaptation) => adaptation.code === 'tool-schema-recursion-cut')).toEqual([
      {
        code: 'tool-schema-recursion-cut',
        path: '/properties/tree/properties/children/items/properties/children/items/properties/children/items',
        detail: 'recursive $ref #/$defs/Node cut after 3 levels',
      },
    ]);
  });

  it('rewrites tuples, oneOf, const and nullable type lists into Gemini forms', () => {
    const { result, adaptations } = adapt({
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
        id: { oneOf: [{ type: 'string' }, { type: 'integer', minimum: 1 }] },
        kind: { const: 'search' },
        note: { type: ['string', 'null'] },
        level: { enum: ['low', 'high', null] },
      },
    });
    expect(result.properties).toEqual({
      pair: {
        type: 'array',
        items: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        minItems: 2,
        maxItems: 2,
      },
      id: { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 1 }] },
      kind: { type: 'string', enum: ['search'] },
      note: { type: 'string', nullable: true },
      level: { enum: ['low', 'high'], nullable: true },
    });
    expect(adaptations.map(({ code, path }) => `${code} ${path}`)).toEqual([
      'tool-schema-rewritten /properties/pair',
      'tool-schema-rewritten /properties/id',
    ]);
  });

  it('drops what Gemini refuses and reports it: closed objects, numeric enums and consts, unknown formats', () => {
    const { result, adaptations } = adapt({
      type: 'object',
      additionalProperties: false,
      properties: {
        email: { type: 'string', format: 'email' },
        when: { type: 'string', format: 'date-time' },
        count: { enum: [1, 2] },
        one: { const: 1 },
        n: { type: 'integer', exclusiveMinimum: 0 },
        both: { allOf: [{ type: 'string' }] },
      },
    });
    expect(result.properties).toEqual({
      email: { type: 'string' },
      when: { type: 'string', format: 'date-time' },
      count: {},
      one: {},
      n: { type: 'integer' },
      both: {},
    });
    expect(adaptations.map(({ path, detail }) => `${path}: ${detail}`)).toEqual([
      '/: additionalProperties false',
      '/properties/email: format "email"',
      '/properties/count: enum [1,2] (Gemini enums hold strings only)',
      '/properties/one: const 1 (Gemini enums hold strings only)',
      '/properties/n: exclusiveMinimum',
      '/properties/both: allOf',
    ]);
  });
});

describe('GeminiAdapter tool schemas', () => {
  it('reports each kind of adaptation once per tool as a CompileWarning naming the tool and paths', () => {
    const warnings: CompileWarning[] = [];
    const payload = new GeminiAdapter().compile([{ role: 'user', content: 'hi' }], {
      tools: [
        {
          name: 'walk_tree',
          description: 'Walks a tree',
          parameters: {
            type: 'object',
            $defs: { Node: node },
            properties: { tree: { $ref: '#/$defs/Node' } },
          },
        },
      ],
      onWarning: (warning) => warnings.push(warning),
    });
    expect(payload.tools?.[0]?.functionDeclarations?.[0]?.parameters).not.toHaveProperty('$defs');
    expect(warnings.map((warning) => warning.code)).toEqual([
      'tool-schema-ref-inlined',
      'tool-schema-recursion-cut',
    ]);
    expect(warnings[1]?.message).toBe(
      'gemini target: tool "walk_tree": cut a recursive schema: /properties/tree/properties/children/items/properties/children/items/properties/children/items: recursive $ref #/$defs/Node cut after 3 levels',
    );
  });
});
