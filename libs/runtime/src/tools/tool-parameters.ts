/**
 * A tool's parameters are a zod schema or a JSON Schema ({@link jsonSchema}). This module is
 * the one place that tells them apart: what the model is shown, and how its arguments are checked.
 */
import type { z } from 'zod';
import { isJsonSchemaParameters, type JsonSchemaIssue, type JsonSchemaParameters } from './json-schema.js';
import { zodToJsonSchema } from './zod-to-json-schema.js';

/** What `ToolDefinition.parameters` may be. */
export type ToolParameters = z.ZodType | JsonSchemaParameters<unknown>;

/** The arguments a handler receives for parameters `P`. */
export type ToolArguments<P> =
  P extends JsonSchemaParameters<infer T> ? T : P extends z.ZodType ? z.infer<P> : never;

/** The outcome of checking a model's arguments. */
export type ToolArgumentsCheck =
  | { success: true; data: unknown }
  | { success: false; issues: JsonSchemaIssue[] };

/**
 * The JSON Schema the model is shown: a JSON Schema as written (without its `$schema` dialect
 * marker), a zod schema converted by {@link zodToJsonSchema}.
 * @throws SchemaConversionError when a zod schema has no JSON Schema form
 */
export function toolParametersJsonSchema(
  parameters: ToolParameters,
  toolName: string,
): Record<string, unknown> {
  if (!isJsonSchemaParameters(parameters)) return zodToJsonSchema(parameters, `tool "${toolName}"`);
  const { $schema: _dialect, ...schema } = parameters.jsonSchema;
  return schema;
}

/** Checks the model's arguments: zod parses (defaults and transforms apply), a JSON Schema validates. */
export function checkToolArguments(parameters: ToolParameters, value: unknown): ToolArgumentsCheck {
  if (isJsonSchemaParameters(parameters)) return parameters.safeParse(value);
  const parsed = parameters.safeParse(value);
  if (parsed.success) return { success: true, data: parsed.data };
  return {
    success: false,
    issues: parsed.error.issues.map((issue) => ({
      path: issue.path.join('.') || '(root)',
      message: issue.message,
    })),
  };
}
