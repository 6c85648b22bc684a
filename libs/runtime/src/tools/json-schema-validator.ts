/**
 * Compiles JSON Schemas into ajv validators, one ajv instance per draft, with formats validated
 * (ajv-formats, as the MCP SDK does) and OpenAPI `nullable` honoured. Compiled validators are
 * cached by schema text (MCP tools are listed again every generation), and evicted from ajv too,
 * so a long-lived worker does not grow.
 */
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv';
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import { InvalidJsonSchemaError } from '../errors/agent-errors.js';

/** One way a value broke the schema. */
export interface JsonSchemaIssue {
  /** Dotted path of the offending value (`addr.city`, `pair.1`), `(root)` for the value itself. */
  path: string;
  message: string;
}

/** The outcome of validating a value (the shape of zod's `safeParse`). */
export type JsonSchemaValidation<T> =
  | { success: true; data: T }
  | { success: false; issues: JsonSchemaIssue[] };

/** Compiled validators kept at most; the oldest is evicted first. */
const CACHE_LIMIT = 500;
/** Issues reported per failed validation at most (unions can produce many). */
const MAX_ISSUES = 10;

type AjvInstance = Ajv | Ajv2019 | Ajv2020;

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = ((addFormatsImport as unknown as { default?: unknown }).default ?? addFormatsImport) as (
  ajv: AjvInstance,
) => void;

const instances = new Map<string, AjvInstance>();
const cache = new Map<string, { ajv: AjvInstance; schema: AnySchemaObject; validate: ValidateFunction }>();

/**
 * A validator of `schema`; the value is returned as given (no defaults, coercion or removal).
 * @throws InvalidJsonSchemaError naming `site` when ajv cannot compile the schema
 */
export function compileJsonSchemaValidator<T>(
  schema: Record<string, unknown>,
  site: string,
): (value: unknown) => JsonSchemaValidation<T> {
  const validate = compiled(schema, site);
  return (value) => {
    if (validate(value)) return { success: true, data: value as T };
    return { success: false, issues: (validate.errors ?? []).slice(0, MAX_ISSUES).map(toIssue) };
  };
}

function compiled(schema: Record<string, unknown>, site: string): ValidateFunction {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit.validate;
  // The draft picks the ajv instance; `$schema` and `$id` are dropped so ajv neither fetches a
  // meta-schema nor refuses a second tool that reuses an id.
  const { $schema, $id: _id, ...body } = schema;
  const drafts = draftsFor(typeof $schema === 'string' ? $schema : undefined);
  let lastError: unknown;
  for (const draft of drafts) {
    const ajv = instanceFor(draft);
    const copy = structuredClone(body);
    try {
      const validate = ajv.compile(copy);
      remember(key, { ajv, schema: copy, validate });
      return validate;
    } catch (error) {
      ajv.removeSchema(copy);
      lastError = error;
    }
  }
  const reason = lastError instanceof Error ? lastError.message : String(lastError);
  throw new InvalidJsonSchemaError(site, `the validator could not compile it (${reason})`, lastError);
}

/**
 * Draft-07 and older read alike for validation; no `$schema` means 2020-12 (MCP's default),
 * then draft-07 for schemas that still write tuples as `items: [...]`.
 */
function draftsFor($schema: string | undefined): string[] {
  if ($schema === undefined) return ['2020-12', 'draft-07'];
  if (/draft-0[4-7]/.test($schema)) return ['draft-07'];
  if ($schema.includes('2019-09')) return ['2019-09'];
  return ['2020-12'];
}

function instanceFor(draft: string): AjvInstance {
  let ajv = instances.get(draft);
  if (ajv) return ajv;
  // strict off: servers add their own keywords (`nullable`, `x-…`); formats ajv does not know are ignored.
  const options = { strict: false, allErrors: true, validateSchema: false, logger: false } as const;
  if (draft === '2020-12') ajv = new Ajv2020(options);
  else if (draft === '2019-09') ajv = new Ajv2019(options);
  else ajv = new Ajv(options);
  addFormats(ajv);
  instances.set(draft, ajv);
  return ajv;
}

function remember(
  key: string,
  entry: { ajv: AjvInstance; schema: AnySchemaObject; validate: ValidateFunction },
): void {
  cache.set(key, entry);
  if (cache.size <= CACHE_LIMIT) return;
  const [oldestKey, oldest] = cache.entries().next().value as [string, typeof entry];
  cache.delete(oldestKey);
  oldest.ajv.removeSchema(oldest.schema);
}

function toIssue(error: ErrorObject): JsonSchemaIssue {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required' && typeof params.missingProperty === 'string')
    return { path: join(path, params.missingProperty), message: 'is required' };
  if (error.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string')
    return { path: join(path, params.additionalProperty), message: 'is not an allowed property' };
  if (error.keyword === 'enum' && Array.isArray(params.allowedValues))
    return {
      path,
      message: `must be one of ${params.allowedValues.map((value) => JSON.stringify(value)).join(', ')}`,
    };
  if (error.keyword === 'const') return { path, message: `must be ${JSON.stringify(params.allowedValue)}` };
  return { path, message: error.message ?? `fails "${error.keyword}"` };
}

/** `/addr/city` → `addr.city`; `` → `(root)` (the path style of zod issues, as tools had before). */
function pointerToPath(pointer: string): string {
  if (pointer === '') return '(root)';
  return pointer
    .slice(1)
    .split('/')
    .map((segment) => segment.replaceAll('~1', '/').replaceAll('~0', '~'))
    .join('.');
}

function join(path: string, property: string): string {
  return path === '(root)' ? property : `${path}.${property}`;
}
