const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * Extends a path into an input payload by one step, in the form users read in error messages:
 * `inputPath('messages', 3)` → `messages[3]`, `inputPath('messages[3]', 'content')` →
 * `messages[3].content`. Keys that are not identifiers are quoted (`a["b-c"]`).
 */
export function inputPath(parent: string, key: string | number): string {
  if (typeof key === 'number') return `${parent}[${key}]`;
  if (IDENTIFIER.test(key)) return `${parent}.${key}`;
  return `${parent}[${JSON.stringify(key)}]`;
}
