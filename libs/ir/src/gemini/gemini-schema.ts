import { isJsonObject } from '../shared/parse-tool-arguments.js';

type Schema = Record<string, unknown>;

/** One change made to fit a schema into Gemini's subset; `path` is a JSON Pointer into the result. */
export interface GeminiSchemaAdaptation {
  code:
    | 'tool-schema-ref-inlined'
    | 'tool-schema-recursion-cut'
    | 'tool-schema-keyword-dropped'
    | 'tool-schema-rewritten';
  path: string;
  detail: string;
}

/** The JSON Schema keywords Gemini's `Schema` (an OpenAPI subset) understands. */
const KEPT_KEYWORDS = new Set([
  'type',
  'title',
  'description',
  'nullable',
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
  'default',
  'example',
  'propertyOrdering',
]);

/** Keywords dropped without a warning: they carry nothing the model could use. */
const SILENT_KEYWORDS = new Set(['$schema', '$id', '$comment', '$defs', 'definitions', '$anchor']);

/** `format` values Gemini accepts, per type; others are refused by the API, so they are dropped. */
const GEMINI_FORMATS: Record<string, string[]> = {
  string: ['enum', 'date-time'],
  number: ['float', 'double'],
  integer: ['int32', 'int64'],
};

/**
 * How many times one `$ref` may be expanded inside itself: a recursive schema (a tree node
 * whose children are nodes) cannot be inlined whole, so past this depth the reference becomes a
 * bare `{ type }` of its target.
 */
export const GEMINI_RECURSIVE_REF_DEPTH = 3;

/**
 * Rewrites a tool's JSON Schema into the subset Gemini's `parameters` accepts. Local `$ref`s
 * (`#/$defs/…`, `#/definitions/…`, any `#/…` pointer) are inlined, a recursive one up to
 * {@link GEMINI_RECURSIVE_REF_DEPTH} levels; `type: ['x', 'null']` becomes `type: 'x', nullable:
 * true` (several non-null types an `anyOf`); `oneOf` becomes `anyOf`; a string `const` becomes
 * a one-value `enum`; tuples (`prefixItems`) become `items: { anyOf }` with their length as
 * bounds; `required` keeps only declared properties; an empty `properties` is removed; every
 * other keyword (`additionalProperties`, `allOf`, `not`, `exclusiveMinimum`, most `format`s …)
 * is dropped. Each change that is not pure bookkeeping is passed to `onAdaptation`, so the
 * caller can report it. Returns a new object; the input is not changed.
 */
export function toGeminiSchema(
  schema: Schema,
  onAdaptation: (adaptation: GeminiSchemaAdaptation) => void = () => {},
): Schema {
  return new GeminiSchemaWriter(schema, onAdaptation).write(schema, '', []);
}

class GeminiSchemaWriter {
  readonly #root: Schema;
  readonly #report: (adaptation: GeminiSchemaAdaptation) => void;

  constructor(root: Schema, report: (adaptation: GeminiSchemaAdaptation) => void) {
    this.#root = root;
    this.#report = report;
  }

  /** `refs` are the references being expanded around this node (to see recursion). */
  write(node: Schema, path: string, refs: string[]): Schema {
    const resolved = this.#resolve(node, path, refs);
    if ('cut' in resolved) return resolved.cut;
    const { schema, refs: inside } = resolved;
    const output: Schema = {};
    for (const [key, value] of Object.entries(schema))
      this.#keyword(output, schema, key, value, path, inside);
    this.#applyType(output, path);
    this.#cleanProperties(output, path, inside);
    return output;
  }

  #keyword(output: Schema, schema: Schema, key: string, value: unknown, path: string, refs: string[]): void {
    const at = `${path}/${key}`;
    // Beside `prefixItems`, `items` only says what may follow the tuple (see #tuple).
    if (key === 'items' && schema.prefixItems !== undefined) return;
    if (key === 'additionalItems' && Array.isArray(schema.items)) return;
    if (key === 'anyOf' || key === 'oneOf') {
      if (key === 'oneOf') this.#adapt('tool-schema-rewritten', path, 'oneOf sent as anyOf');
      output.anyOf = this.#list(value, at, refs);
    } else if (key === 'items' && isJsonObject(value)) output.items = this.write(value, at, refs);
    else if (key === 'items' && Array.isArray(value)) this.#tuple(output, schema, value, path, refs);
    else if (key === 'prefixItems' && Array.isArray(value)) this.#tuple(output, schema, value, path, refs);
    else if (key === 'const') this.#const(output, value, path);
    else if (key === 'enum') this.#enum(output, value, path);
    else if (key === 'format') this.#format(output, schema, value, path);
    else if (key === 'additionalProperties') this.#additional(value, path);
    else if (KEPT_KEYWORDS.has(key)) output[key] = value;
    else if (!SILENT_KEYWORDS.has(key)) this.#adapt('tool-schema-keyword-dropped', path, key);
  }

  /** Follows `$ref`s (merging sibling keywords); a recursive one past the depth is cut. */
  #resolve(node: Schema, path: string, refs: string[]): { schema: Schema; refs: string[] } | { cut: Schema } {
    let schema = node;
    let inside = refs;
    while (typeof schema.$ref === 'string') {
      const { $ref, ...siblings } = schema;
      const target = lookUpPointer(this.#root, $ref);
      if (!target) {
        this.#adapt(
          'tool-schema-keyword-dropped',
          path,
          `$ref ${$ref} (only local references can be inlined)`,
        );
        return { schema: siblings, refs: inside };
      }
      if (inside.filter((ref) => ref === $ref).length >= GEMINI_RECURSIVE_REF_DEPTH) {
        this.#adapt(
          'tool-schema-recursion-cut',
          path,
          `recursive $ref ${$ref} cut after ${GEMINI_RECURSIVE_REF_DEPTH} levels`,
        );
        return { cut: cutSchema(target, siblings) };
      }
      this.#adapt('tool-schema-ref-inlined', path, `$ref ${$ref}`);
      schema = { ...target, ...siblings };
      inside = [...inside, $ref];
    }
    return { schema, refs: inside };
  }

  #list(value: unknown, path: string, refs: string[]): Schema[] {
    if (!Array.isArray(value)) return [];
    return value.flatMap((item, index) =>
      isJsonObject(item) ? [this.write(item, `${path}/${index}`, refs)] : [],
    );
  }

  /** A tuple has no Gemini form: any of its item schemas, at its length. */
  #tuple(output: Schema, schema: Schema, items: unknown[], path: string, refs: string[]): void {
    const key = Array.isArray(schema.prefixItems) ? 'prefixItems' : 'items';
    const members = this.#list(items, `${path}/${key}`, refs);
    this.#adapt(
      'tool-schema-rewritten',
      path,
      `tuple (${key}) sent as an array of anyOf its ${members.length} item schemas`,
    );
    output.items = members.length === 1 ? members[0] : { anyOf: members };
    if (schema.items === false || (key === 'items' && schema.additionalItems === false)) {
      output.maxItems = schema.maxItems ?? members.length;
    }
    output.minItems = schema.minItems ?? members.length;
  }

  #const(output: Schema, value: unknown, path: string): void {
    if (typeof value === 'string') {
      output.enum = [value];
      output.type ??= 'string';
      return;
    }
    this.#adapt(
      'tool-schema-keyword-dropped',
      path,
      `const ${JSON.stringify(value)} (Gemini enums hold strings only)`,
    );
  }

  #enum(output: Schema, value: unknown, path: string): void {
    if (!Array.isArray(value)) return;
    const strings = value.filter((item): item is string => typeof item === 'string');
    if (value.includes(null)) output.nullable = true;
    if (strings.length === value.filter((item) => item !== null).length && strings.length > 0) {
      output.enum = strings;
      return;
    }
    this.#adapt(
      'tool-schema-keyword-dropped',
      path,
      `enum ${JSON.stringify(value)} (Gemini enums hold strings only)`,
    );
  }

  #format(output: Schema, schema: Schema, value: unknown, path: string): void {
    const type = typeof schema.type === 'string' ? schema.type : 'string';
    if (typeof value === 'string' && GEMINI_FORMATS[type]?.includes(value)) output.format = value;
    else this.#adapt('tool-schema-keyword-dropped', path, `format ${JSON.stringify(value)}`);
  }

  /** Open objects are Gemini's only kind, so only a restriction is lost. */
  #additional(value: unknown, path: string): void {
    if (value === true || (isJsonObject(value) && Object.keys(value).length === 0)) return;
    this.#adapt('tool-schema-keyword-dropped', path, `additionalProperties ${JSON.stringify(value)}`);
  }

  /** `type: ['x', 'null']` → `type: 'x', nullable: true`; several types → `anyOf`. */
  #applyType(output: Schema, path: string): void {
    if (output.type === undefined && isJsonObject(output.properties)) output.type = 'object';
    if (!Array.isArray(output.type)) return;
    const types = output.type.filter((type): type is string => typeof type === 'string');
    const concrete = types.filter((type) => type !== 'null');
    if (types.includes('null')) output.nullable = true;
    if (concrete.length === 1) output.type = concrete[0];
    else delete output.type;
    if (concrete.length > 1) {
      output.anyOf = concrete.map((type) => ({ type }));
      this.#adapt('tool-schema-rewritten', path, `type ${JSON.stringify(types)} sent as anyOf`);
    }
  }

  #cleanProperties(output: Schema, path: string, refs: string[]): void {
    if (!isJsonObject(output.properties)) {
      delete output.properties;
      delete output.required;
      return;
    }
    const properties: Schema = {};
    for (const [name, value] of Object.entries(output.properties)) {
      if (isJsonObject(value))
        properties[name] = this.write(value, `${path}/properties/${escapePointer(name)}`, refs);
    }
    if (Object.keys(properties).length === 0) {
      delete output.properties;
      delete output.required;
      return;
    }
    output.properties = properties;
    if (Array.isArray(output.required))
      output.required = output.required.filter((name) => name in properties);
  }

  #adapt(code: GeminiSchemaAdaptation['code'], path: string, detail: string): void {
    this.#report({ code, path: path === '' ? '/' : path, detail });
  }
}

/** What is left of a recursive reference: its type and description, no structure. */
function cutSchema(target: Schema, siblings: Schema): Schema {
  const cut: Schema = { type: typeof target.type === 'string' ? target.type : 'object' };
  const description = siblings.description ?? target.description;
  if (typeof description === 'string') cut.description = description;
  return cut;
}

function lookUpPointer(root: Schema, pointer: string): Schema | undefined {
  if (pointer === '#') return root;
  if (!pointer.startsWith('#/')) return undefined;
  let value: unknown = root;
  for (const segment of pointer.slice(2).split('/')) {
    const key = decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~');
    value = isJsonObject(value) ? value[key] : Array.isArray(value) ? value[Number(key)] : undefined;
  }
  return isJsonObject(value) ? value : undefined;
}

function escapePointer(name: string): string {
  return name.replaceAll('~', '~0').replaceAll('/', '~1');
}
