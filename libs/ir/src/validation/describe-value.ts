/**
 * Names the JSON type of a value for an error message: `null`, `an array`, `a string`,
 * `a number`, `a boolean`, `an object`, `undefined` (missing).
 */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined (missing)';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  if (type === 'object') return 'an object';
  if (type === 'string') return 'a string';
  if (type === 'number') return 'a number';
  if (type === 'boolean') return 'a boolean';
  return `a ${type}`;
}
