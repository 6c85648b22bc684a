/**
 * Converts the JSON Schema of an MCP tool's `inputSchema` into a Zod schema, so MCP tools are
 * ordinary Flotilla tools: the runtime validates the model's arguments with it and describes
 * the tool to the model from it.
 *
 * Supported: `type` (one or a list), `object` (`properties`, `required`, `additionalProperties`),
 * `array` (`items`, `minItems`, `maxItems`), `string` (`enum`, `minLength`, `maxLength`,
 * `pattern`), `number` / `integer` (`minimum`, `maximum`, exclusive bounds), `boolean`, `null`,
 * `enum`, `const`, `anyOf`, `oneOf` (both as a union), `allOf` (intersection), `nullable: true`,
 * `description` and `default`. Anything else (`$ref`, `not`, `if`/`then`, tuples, unknown types)
 * becomes `z.unknown()`, which accepts any value and lets the MCP server do the validation;
 * `onUnsupported` reports where that happened.
 */
import { z } from 'zod';

/** A JSON Schema document or sub-schema, as an MCP server sends it. */
export type JsonSchema = boolean | { [keyword: string]: unknown };

/** Options of {@link jsonSchemaToZod}. */
export interface JsonSchemaToZodOptions {
  /**
   * Called once per construct that was degraded to `z.unknown()`, with its JSON path
   * (`$.properties.filter.anyOf[1]`) and what was not understood (`$ref`, `type:"tuple"` …).
   * @default ignore
   */
  onUnsupported?: (path: string, construct: string) => void;
}

type Schema = { [keyword: string]: unknown };

/** Converts `schema` (any JSON Schema value) to Zod. Never throws on unknown constructs. */
export function jsonSchemaToZod(schema: unknown, options: JsonSchemaToZodOptions = {}): z.ZodType {
  return convert(schema, '$', options.onUnsupported ?? (() => {}));
}

type Report = (path: string, construct: string) => void;

function convert(schema: unknown, path: string, report: Report): z.ZodType {
  if (schema === true || schema === undefined) return z.unknown();
  if (schema === false) return z.never();
  if (!isSchema(schema)) {
    report(path, `non-schema value ${JSON.stringify(schema)}`);
    return z.unknown();
  }
  let result = withoutAnnotations(schema, path, report);
  if (schema.nullable === true) result = result.nullable();
  if (typeof schema.description === 'string') result = result.describe(schema.description);
  if ('default' in schema && schema.default !== undefined) result = result.default(schema.default as never);
  return result;
}

function withoutAnnotations(schema: Schema, path: string, report: Report): z.ZodType {
  if ('const' in schema) {
    if (isLiteral(schema.const)) return z.literal(schema.const);
    report(path, 'const of a non-primitive value');
    return z.unknown();
  }
  if (Array.isArray(schema.enum)) return enumSchema(schema.enum, path, report);
  if (Array.isArray(schema.anyOf)) return unionSchema(schema.anyOf, `${path}.anyOf`, report);
  if (Array.isArray(schema.oneOf)) return unionSchema(schema.oneOf, `${path}.oneOf`, report);
  if (Array.isArray(schema.allOf)) return intersectionSchema(schema.allOf, `${path}.allOf`, report);
  if (typeof schema.$ref === 'string') {
    report(path, `$ref ${schema.$ref}`);
    return z.unknown();
  }
  if (Array.isArray(schema.type)) {
    return unionOf(schema.type.map((type) => typedSchema({ ...schema, type }, path, report)));
  }
  if (schema.type === undefined) {
    // Objects are often written without `type`; anything else untyped accepts any value.
    if (isSchema(schema.properties)) return typedSchema({ ...schema, type: 'object' }, path, report);
    return z.unknown();
  }
  return typedSchema(schema, path, report);
}

function typedSchema(schema: Schema, path: string, report: Report): z.ZodType {
  switch (schema.type) {
    case 'object':
      return objectSchema(schema, path, report);
    case 'array':
      return arraySchema(schema, path, report);
    case 'string':
      return stringSchema(schema);
    case 'number':
      return numberSchema(schema, z.number());
    case 'integer':
      return numberSchema(schema, z.number().int());
    case 'boolean':
      return z.boolean();
    case 'null':
      return z.null();
    default:
      report(path, `type:${JSON.stringify(schema.type)}`);
      return z.unknown();
  }
}

function objectSchema(schema: Schema, path: string, report: Report): z.ZodType {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const shape: Record<string, z.ZodType> = {};
  for (const [name, property] of Object.entries(properties)) {
    const converted = convert(property, `${path}.properties.${name}`, report);
    shape[name] = required.has(name) ? converted : converted.optional();
  }
  const additional = schema.additionalProperties;
  // JSON Schema allows unknown properties unless told otherwise; keep them for the server.
  if (additional === false) return z.object(shape);
  if (isSchema(additional)) {
    return z.object(shape).catchall(convert(additional, `${path}.additionalProperties`, report));
  }
  return z.looseObject(shape);
}

function arraySchema(schema: Schema, path: string, report: Report): z.ZodType {
  let items: z.ZodType;
  if (Array.isArray(schema.items) || Array.isArray(schema.prefixItems)) {
    report(path, 'tuple items');
    items = z.unknown();
  } else {
    items = convert(schema.items, `${path}.items`, report);
  }
  let array = z.array(items);
  if (typeof schema.minItems === 'number') array = array.min(schema.minItems);
  if (typeof schema.maxItems === 'number') array = array.max(schema.maxItems);
  return array;
}

function stringSchema(schema: Schema): z.ZodType {
  let string = z.string();
  if (typeof schema.minLength === 'number') string = string.min(schema.minLength);
  if (typeof schema.maxLength === 'number') string = string.max(schema.maxLength);
  if (typeof schema.pattern === 'string') {
    const pattern = safeRegExp(schema.pattern);
    if (pattern) string = string.regex(pattern);
  }
  return string;
}

function numberSchema(schema: Schema, base: z.ZodNumber): z.ZodType {
  let number = base;
  if (typeof schema.minimum === 'number') number = number.min(schema.minimum);
  if (typeof schema.maximum === 'number') number = number.max(schema.maximum);
  if (typeof schema.exclusiveMinimum === 'number') number = number.gt(schema.exclusiveMinimum);
  if (typeof schema.exclusiveMaximum === 'number') number = number.lt(schema.exclusiveMaximum);
  return number;
}

function enumSchema(values: unknown[], path: string, report: Report): z.ZodType {
  if (values.length > 0 && values.every((value) => typeof value === 'string')) {
    return z.enum(values as [string, ...string[]]);
  }
  const literals = values.filter(isLiteral);
  if (literals.length !== values.length || literals.length === 0) {
    report(path, 'enum of non-primitive values');
    return z.unknown();
  }
  return z.literal(literals);
}

function unionSchema(members: unknown[], path: string, report: Report): z.ZodType {
  return unionOf(members.map((member, index) => convert(member, `${path}[${index}]`, report)));
}

function intersectionSchema(members: unknown[], path: string, report: Report): z.ZodType {
  const converted = members.map((member, index) => convert(member, `${path}[${index}]`, report));
  const [first, ...rest] = converted;
  if (!first) return z.unknown();
  return rest.reduce<z.ZodType>((all, member) => z.intersection(all, member), first);
}

function unionOf(members: z.ZodType[]): z.ZodType {
  const [first, second, ...rest] = members;
  if (!first) return z.unknown();
  if (!second) return first;
  return z.union([first, second, ...rest]);
}

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isLiteral(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

function safeRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    // JSON Schema patterns are ECMA-262, but servers send other dialects; skip what JS rejects.
    return undefined;
  }
}
