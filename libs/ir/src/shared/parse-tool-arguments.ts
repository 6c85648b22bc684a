import type { WarningSink } from './warning-sink.js';

/**
 * Parses a tool call's JSON `arguments` into the object Anthropic (`input`) and Gemini (`args`)
 * need. Never throws: `''` (or whitespace) is `{}`; text that is not a JSON object (invalid
 * JSON, an array, a number …) also becomes `{}` and is reported as `tool-arguments-invalid`,
 * because both providers reject anything but an object and a crash would lose the whole turn.
 */
export function parseToolArguments(
  text: string,
  sink: WarningSink,
  messageIndex: number,
  callId: string,
): Record<string, unknown> {
  if (text.trim() === '') return {};
  const parsed = tryParseJson(text);
  if (isJsonObject(parsed)) return parsed;
  sink.warn(
    'tool-arguments-invalid',
    `tool call "${callId}" has arguments that are not a JSON object (${preview(text)}); sent as {}. ` +
      'Fix the stored arguments to keep them.',
    messageIndex,
  );
  return {};
}

/** `JSON.parse`, or `undefined` when the text is not JSON. */
export function tryParseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A plain JSON object (not an array, not null). */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function preview(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}
