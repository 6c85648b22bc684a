/**
 * Whether OpenAI's strict mode (`strict: true`: the model's arguments always match the schema)
 * accepts a tool's JSON Schema. Strict mode takes a subset of JSON Schema; a schema outside it
 * is refused by the API, so strict is only turned on when every construct allows it, and the
 * schema itself is never changed to get there. The subset, from OpenAI's Structured Outputs
 * guide: the root is an object; every object lists all its properties in `required` and has
 * `additionalProperties: false`; types, `enum`, `anyOf`, local `$ref`/`$defs`, a few string
 * `format`s and number/array bounds; at most 10 levels of nested objects, 5,000 properties and
 * 1,000 enum values. Anything else (`oneOf`, `allOf`, `not`, `const`, `prefixItems`,
 * `default`, optional properties, open objects …) keeps the tool non-strict.
 */

type Schema = Record<string, unknown>;

const ALLOWED_KEYWORDS = new Set([
  'type',
  'description',
  'title',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'anyOf',
  '$ref',
  '$defs',
  'definitions',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
]);
const ALLOWED_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const ALLOWED_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'uuid',
]);
const MAX_OBJECT_DEPTH = 10;
const MAX_PROPERTIES = 5000;
const MAX_ENUM_VALUES = 1000;

/** Whether `schema` (a tool's parameters) can be sent with `strict: true`. */
export function allowsOpenAIStrict(schema: Schema): boolean {
  if (schema.type !== 'object') return false;
  const counts = { properties: 0, enumValues: 0 };
  const { $schema: _dialect, ...root } = schema;
  return (
    allows(root, 1, counts) && counts.properties <= MAX_PROPERTIES && counts.enumValues <= MAX_ENUM_VALUES
  );
}

function allows(node: unknown, depth: number, counts: { properties: number; enumValues: number }): boolean {
  if (!isSchema(node)) return false;
  if (!Object.keys(node).every((key) => ALLOWED_KEYWORDS.has(key))) return false;
  if (!typesAllowed(node.type)) return false;
  if (node.format !== undefined && !ALLOWED_FORMATS.has(node.format as string)) return false;
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) return false;
  if (Array.isArray(node.enum)) counts.enumValues += node.enum.length;
  const children: [unknown, number][] = [];
  if (isObjectNode(node)) {
    if (depth > MAX_OBJECT_DEPTH || node.additionalProperties !== false) return false;
    const properties = isSchema(node.properties) ? node.properties : {};
    const names = Object.keys(properties);
    const required = new Set(Array.isArray(node.required) ? node.required : []);
    if (!names.every((name) => required.has(name))) return false;
    counts.properties += names.length;
    for (const property of Object.values(properties)) children.push([property, depth + 1]);
  }
  if (node.items !== undefined) children.push([node.items, depth]);
  if (node.anyOf !== undefined) {
    if (!Array.isArray(node.anyOf)) return false;
    for (const member of node.anyOf) children.push([member, depth]);
  }
  for (const key of ['$defs', 'definitions'] as const) {
    if (node[key] === undefined) continue;
    if (!isSchema(node[key])) return false;
    for (const definition of Object.values(node[key])) children.push([definition, depth]);
  }
  return children.every(([child, childDepth]) => allows(child, childDepth, counts));
}

function isObjectNode(node: Schema): boolean {
  const { type } = node;
  return (
    type === 'object' || (Array.isArray(type) && type.includes('object')) || node.properties !== undefined
  );
}

function typesAllowed(type: unknown): boolean {
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  return types.length > 0 && types.every((item) => typeof item === 'string' && ALLOWED_TYPES.has(item));
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
