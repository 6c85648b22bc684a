import { isJsonObject } from '../shared/parse-tool-arguments.js';

/** The JSON Schema keywords Gemini's `Schema` (an OpenAPI subset) understands; all others are removed. */
const KEPT_KEYWORDS = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'properties',
  'required',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'default',
  'example',
  'propertyOrdering',
]);

/** Deeper `$ref` chains than this are cut (a recursive schema cannot be inlined). */
const MAX_REF_DEPTH = 8;

/**
 * Rewrites a tool's JSON Schema into the subset Gemini's `parameters` accepts: local `$ref`s
 * (`#/$defs/…`, `#/definitions/…`) are inlined, `type: ['string', 'null']` becomes
 * `type: 'string', nullable: true`, `oneOf` becomes `anyOf`, a string `const` becomes a
 * one-value string `enum`, `required` keeps only declared properties, an empty `properties` is
 * removed, and every other keyword (`$schema`, `additionalProperties`, `allOf`, `not` …) is
 * dropped. Returns a new object; the input is not changed.
 */
export function toGeminiSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return clean(schema, schema, 0);
}

function clean(
  node: Record<string, unknown>,
  root: Record<string, unknown>,
  depth: number,
): Record<string, unknown> {
  const resolved = resolveRef(node, root, depth);
  if (!resolved) return { type: 'object' };
  const { schema, depth: nextDepth } = resolved;
  const output: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'oneOf' || key === 'anyOf') output.anyOf = cleanList(value, root, nextDepth);
    else if (key === 'const' && typeof value === 'string') output.enum = [value];
    else if (KEPT_KEYWORDS.has(key)) output[key] = value;
  }
  if (output.enum !== undefined && output.type === undefined && typeof schema.const === 'string')
    output.type = 'string';
  applyType(output);
  if (isJsonObject(output.items)) output.items = clean(output.items, root, nextDepth);
  cleanProperties(output, root, nextDepth);
  return output;
}

/** Follows a local `$ref` (merging the sibling keywords); `undefined` when it loops too deep. */
function resolveRef(
  node: Record<string, unknown>,
  root: Record<string, unknown>,
  depth: number,
): { schema: Record<string, unknown>; depth: number } | undefined {
  let schema = node;
  let current = depth;
  while (typeof schema.$ref === 'string') {
    if (current >= MAX_REF_DEPTH) return undefined;
    const { $ref, ...siblings } = schema;
    const target = lookUpPointer(root, $ref);
    if (!target) return { schema: siblings, depth: current };
    schema = { ...target, ...siblings };
    current++;
  }
  return { schema, depth: current };
}

function lookUpPointer(root: Record<string, unknown>, pointer: string): Record<string, unknown> | undefined {
  if (!pointer.startsWith('#/')) return undefined;
  let value: unknown = root;
  for (const segment of pointer.slice(2).split('/')) {
    const key = segment.replaceAll('~1', '/').replaceAll('~0', '~');
    value = isJsonObject(value) ? value[key] : undefined;
  }
  return isJsonObject(value) ? value : undefined;
}

function cleanList(value: unknown, root: Record<string, unknown>, depth: number): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isJsonObject).map((item) => clean(item, root, depth));
}

/** `type: ['x', 'null']` → `type: 'x', nullable: true` (Gemini takes one type name). */
function applyType(output: Record<string, unknown>): void {
  if (!Array.isArray(output.type)) return;
  const types = output.type.filter((type): type is string => typeof type === 'string');
  const concrete = types.filter((type) => type !== 'null');
  if (types.includes('null')) output.nullable = true;
  if (concrete.length > 0) output.type = concrete[0];
  else delete output.type;
}

function cleanProperties(
  output: Record<string, unknown>,
  root: Record<string, unknown>,
  depth: number,
): void {
  if (!isJsonObject(output.properties)) {
    delete output.properties;
    delete output.required;
    return;
  }
  const properties: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(output.properties)) {
    if (isJsonObject(value)) properties[name] = clean(value, root, depth);
  }
  if (Object.keys(properties).length === 0) {
    delete output.properties;
    delete output.required;
    return;
  }
  output.properties = properties;
  if (Array.isArray(output.required)) output.required = output.required.filter((name) => name in properties);
}
