import { describe, expect, it } from 'vitest';
import { allowsOpenAIStrict } from './openai-strict-schema.js';

const closed = {
  type: 'object',
  $defs: {
    Node: {
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
      required: ['label', 'children'],
      additionalProperties: false,
    },
  },
  properties: {
    tree: { $ref: '#/$defs/Node' },
    when: { type: 'string', format: 'date-time' },
    size: { anyOf: [{ type: 'number', minimum: 0 }, { type: 'null' }] },
    mode: { type: ['string', 'null'], enum: ['fast', 'slow', null] },
  },
  required: ['tree', 'when', 'size', 'mode'],
  additionalProperties: false,
};

describe('allowsOpenAIStrict', () => {
  it('allows a closed schema with local (recursive) $refs, anyOf, nullable types and supported formats', () => {
    expect(allowsOpenAIStrict(closed)).toBe(true);
  });

  it.each([
    ['an optional property', { ...closed, required: ['tree', 'when', 'size'] }],
    ['an open object', { ...closed, additionalProperties: undefined }],
    [
      'an open object in $defs',
      { ...closed, $defs: { Node: { ...closed.$defs.Node, additionalProperties: true } } },
    ],
    [
      'oneOf',
      {
        ...closed,
        properties: { ...closed.properties, size: { oneOf: [{ type: 'number' }, { type: 'null' }] } },
      },
    ],
    ['const', { ...closed, properties: { ...closed.properties, when: { const: 'now' } } }],
    [
      'prefixItems',
      {
        ...closed,
        properties: { ...closed.properties, when: { type: 'array', prefixItems: [{ type: 'string' }] } },
      },
    ],
    [
      'an unsupported format',
      { ...closed, properties: { ...closed.properties, when: { type: 'string', format: 'uri' } } },
    ],
    [
      'a remote $ref',
      { ...closed, properties: { ...closed.properties, tree: { $ref: 'https://example.com/node.json' } } },
    ],
    ['a root that is not an object', { anyOf: [closed] }],
  ])('refuses %s', (_case, schema) => {
    expect(allowsOpenAIStrict(schema as Record<string, unknown>)).toBe(false);
  });

  it('refuses objects nested more than 10 levels deep', () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let level = 0; level < 11; level++)
      schema = { type: 'object', properties: { a: schema }, required: ['a'], additionalProperties: false };
    expect(allowsOpenAIStrict(schema)).toBe(false);
  });
});
