/**
 * The JSON Schema sent for a tool that declares no parameters: an object with no properties.
 * A fresh object per call, so a caller mutating one payload cannot change another.
 */
export function emptyObjectSchema(): { type: 'object'; properties: Record<string, never> } {
  return { type: 'object', properties: {} };
}
