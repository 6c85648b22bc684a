/**
 * zod's `toJSONSchema` writes every `z.number().int()` as bounded by ±2^53−1: true of JavaScript
 * numbers, but a bound nobody wrote, and one every integer field would show the model. Both the
 * runtime's own zod conversion and LangChain's (which uses zod's) go through here.
 */

/**
 * A copy of `schema` where integer nodes lose a `minimum` of `Number.MIN_SAFE_INTEGER` and a
 * `maximum` of `Number.MAX_SAFE_INTEGER`; bounds a user wrote (`.min(1)`, `z.int32()`) stay.
 */
export function dropSafeIntegerBounds<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(dropSafeIntegerBounds) as T;
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = dropSafeIntegerBounds(value);
  if (copy.type === 'integer') {
    if (copy.minimum === Number.MIN_SAFE_INTEGER) delete copy.minimum;
    if (copy.maximum === Number.MAX_SAFE_INTEGER) delete copy.maximum;
  }
  return copy as T;
}
