/**
 * A tool schema with every construct real MCP servers use: `$ref`/`$defs` (nested and
 * recursive), `oneOf`/`anyOf`, `enum`, `const`, `format`, `prefixItems`,
 * `additionalProperties: false` and nullable types.
 */
export const bookingSchema = {
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
    id: { oneOf: [{ type: 'string', format: 'uuid' }, { type: 'integer', minimum: 1 }] },
    size: { anyOf: [{ type: 'number' }, { type: 'null' }] },
    mode: { enum: ['fast', 'slow'] },
    kind: { const: 'search' },
    email: { type: 'string', format: 'email' },
    note: { type: ['string', 'null'] },
  },
  required: ['addr', 'kind'],
  additionalProperties: false,
};

/** The schema as providers that take JSON Schema receive it: as written, without `$schema`. */
export const { $schema: _dialect, ...bookingSchemaAsSent } = bookingSchema;

/** A schema strict mode accepts: closed objects, every property required, a recursive `$ref`. */
export const closedSchema = {
  type: 'object',
  $defs: {
    Node: {
      type: 'object',
      properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/Node' } } },
      required: ['label', 'children'],
      additionalProperties: false,
    },
  },
  properties: { tree: { $ref: '#/$defs/Node' }, note: { type: ['string', 'null'] } },
  required: ['tree', 'note'],
  additionalProperties: false,
};
