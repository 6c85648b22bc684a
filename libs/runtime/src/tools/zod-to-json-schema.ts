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
  const known = converted.get(schema);
  if (known) return copyOf(known) as Record<string, unknown>;
  let jsonSchema: Record<string, unknown>;
  try {
    jsonSchema = dropSafeIntegerBounds(z.toJSONSchema(schema) as Record<string, unknown>);
  } catch (error) {
    throw new SchemaConversionError(site, error);
  }
  const { $schema: _ignored, ...rest } = jsonSchema;
  converted.set(schema, rest);
  return copyOf(rest) as Record<string, unknown>;
}

/**
 * Conversions already made, by schema (zod schemas are immutable): an agent that equips a tool
 * converts its schema on every run, ~20× the cost of the copy each caller gets (callers may
 * change theirs).
 */
const converted = new WeakMap<z.ZodType, Record<string, unknown>>();

/** A deep copy of JSON Schema data (plain objects, arrays, primitives): cheaper than `structuredClone`. */
function copyOf(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyOf);
  if (typeof value !== 'object' || value === null) return value;
  const copy: Record<string, unknown> = {};
  // for…in, not Object.entries: no pair arrays (a tool's schema is copied on every run that equips it).
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    // A property named `__proto__` (a schema may describe one) stays an own property.
    if (key === '__proto__')
      Object.defineProperty(copy, key, {
        value: copyOf(item),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else copy[key] = copyOf(item);
  }
  return copy;
}
