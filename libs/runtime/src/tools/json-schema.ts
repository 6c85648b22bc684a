/**
 * Tool parameters written as JSON Schema (MCP `inputSchema`, LangChain, by hand). The schema is
 * kept exactly as written: it is what the model is shown (each provider adapter adapts it only
 * where the provider requires) and what the model's arguments are validated against, so the two
 * can never disagree. Validation is ajv's ({@link compileJsonSchemaValidator}).
 */
import { InvalidJsonSchemaError } from '../errors/agent-errors.js';
import { DEFAULT_MAX_JSON_DEPTH, DEFAULT_MAX_PAYLOAD_BYTES, inspectJson } from '../json/json-bounds.js';
import { compileJsonSchemaValidator, type JsonSchemaValidation } from './json-schema-validator.js';

export type { JsonSchemaIssue, JsonSchemaValidation } from './json-schema-validator.js';

/** A JSON Schema object (the root of a tool's parameters is always an object schema). */
export type JsonSchemaObject = { [keyword: string]: unknown };

/**
 * Tool parameters as JSON Schema; `T` is the argument type the handler receives (not checked
 * against the schema: say what the schema says). Build one with {@link jsonSchema}.
 */
export interface JsonSchemaParameters<T = unknown> {
  readonly kind: 'json-schema';
  /** The schema exactly as given (not copied, never changed). */
  readonly jsonSchema: Readonly<JsonSchemaObject>;
  /**
   * Validates a value against the schema; never throws. Named like zod's, so code that checks
   * `tool.parameters.safeParse(args).success` works for both kinds of parameters.
   */
  safeParse(value: unknown): JsonSchemaValidation<T>;
}

/**
 * Bounds of a schema given to {@link jsonSchema}: nested objects/arrays and UTF-8 bytes of its
 * JSON text, the runtime's defaults for any outside JSON.
 */
export const MAX_JSON_SCHEMA_DEPTH = DEFAULT_MAX_JSON_DEPTH;
export const MAX_JSON_SCHEMA_BYTES = DEFAULT_MAX_PAYLOAD_BYTES;

/**
 * Wraps a JSON Schema as tool parameters:
 * `defineTool({ name, description, parameters: jsonSchema<{ path: string }>({ type: 'object', … }), handler })`.
 * Any draft ajv knows is accepted (`$schema` draft-07, 2019-09, 2020-12; 2020-12 when absent),
 * with local `$ref`/`$defs`, `oneOf`/`anyOf`, `prefixItems`, `format` (validated) and OpenAPI
 * `nullable`. The validator is compiled here, so a schema that cannot be used fails at once.
 * @throws InvalidJsonSchemaError when `schema` is not a JSON object within {@link MAX_JSON_SCHEMA_DEPTH}
 *   and {@link MAX_JSON_SCHEMA_BYTES}, or cannot be compiled (an unresolvable `$ref`, a bad pattern …)
 */
export function jsonSchema<T = unknown>(
  schema: JsonSchemaObject,
  site = 'jsonSchema()',
): JsonSchemaParameters<T> {
  assertSchemaShape(schema, site);
  const safeParse = compileJsonSchemaValidator<T>(schema, site);
  return { kind: 'json-schema', jsonSchema: schema, safeParse };
}

/** Whether `value` came from {@link jsonSchema} (by shape, so two copies of the runtime agree). */
export function isJsonSchemaParameters(value: unknown): value is JsonSchemaParameters {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Partial<JsonSchemaParameters>;
  return candidate.kind === 'json-schema' && typeof candidate.safeParse === 'function';
}

function assertSchemaShape(schema: unknown, site: string): asserts schema is JsonSchemaObject {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    throw new InvalidJsonSchemaError(site, `expected an object schema, got ${describe(schema)}`);
  }
  const { problem } = inspectJson(schema, {
    maxDepth: MAX_JSON_SCHEMA_DEPTH,
    maxBytes: MAX_JSON_SCHEMA_BYTES,
  });
  if (!problem) return;
  if (problem.kind === 'too-deep')
    throw new InvalidJsonSchemaError(
      site,
      `it nests deeper than ${MAX_JSON_SCHEMA_DEPTH} levels at ${problem.path}`,
    );
  if (problem.kind === 'too-large')
    throw new InvalidJsonSchemaError(site, `its JSON text is larger than ${MAX_JSON_SCHEMA_BYTES} bytes`);
  throw new InvalidJsonSchemaError(site, `it is not JSON at ${problem.path} (${problem.reason})`);
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value;
}
