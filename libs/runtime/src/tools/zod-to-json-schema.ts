/** zod → JSON Schema for the model (tool parameters, `promptAgent` output schemas). */
import { z } from 'zod';
import { SchemaConversionError } from '../errors/agent-errors.js';
import { dropSafeIntegerBounds } from './drop-safe-integer-bounds.js';

/**
 * The JSON Schema of a zod schema, without the `$schema` marker providers do not want and
 * without the safe-integer bounds zod adds to every integer ({@link dropSafeIntegerBounds}).
 * @throws SchemaConversionError naming `site` when the schema cannot be converted
 */
export function zodToJsonSchema(schema: z.ZodType, site: string): Record<string, unknown> {
  let jsonSchema: Record<string, unknown>;
  try {
    jsonSchema = dropSafeIntegerBounds(z.toJSONSchema(schema) as Record<string, unknown>);
  } catch (error) {
    throw new SchemaConversionError(site, error);
  }
  const { $schema: _ignored, ...rest } = jsonSchema;
  return rest;
}
