/**
 * Tolerant JSON extraction from model text (spec §4.4): prose before the JSON, code fences
 * and trailing chatter are allowed. The first `{` or `[` starts the value; it ends at the close
 * of the first balanced value (brackets inside strings and escapes ignored), or at the end of
 * the text when it never closes.
 */
import type { z } from 'zod';
import type { OutputParser, ParseOutcome } from './output-parser.js';

const FENCE = /```(?:json)?\s*\n?([\s\S]*?)(?:```|$)/i;

/** The JSON part of `text`, or `undefined` when it holds no `{` or `[`. */
export function extractJsonText(text: string): string | undefined {
  let source = text.trim();
  const fenced = FENCE.exec(source)?.[1]?.trim();
  if (fenced && (fenced.startsWith('{') || fenced.startsWith('['))) source = fenced;
  const start = source.search(/[{[]/);
  if (start < 0) return undefined;
  const end = balancedEnd(source, start);
  return source
    .slice(start, end)
    .replace(/```\s*$/, '')
    .trim();
}

function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === '\\') index++;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === '"') inString = true;
    else if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      depth--;
      if (depth === 0) return index + 1;
    }
  }
  return text.length;
}

/** A parser that extracts JSON from the text and validates it with `schema`. */
export function createJsonOutputParser<S extends z.ZodType>(schema: S): OutputParser<z.infer<S>> {
  return {
    id: 'json',
    parse(text: string): ParseOutcome<z.infer<S>> {
      const json = extractJsonText(text);
      if (json === undefined) {
        return failure(
          'no_content',
          'No JSON found in the answer. Output only the JSON value, or a ```json fenced block.',
        );
      }
      let data: unknown;
      try {
        data = JSON.parse(json);
      } catch (error) {
        return failure('parse_error', `[parse_error] Invalid parser output: ${(error as Error).message}`);
      }
      const parsed = schema.safeParse(data);
      if (parsed.success) return { ok: true, data: parsed.data };
      const issues = parsed.error.issues.map((issue) =>
        issue.path.length > 0
          ? `Field "${issue.path.join('.')}": ${issue.message}`
          : `Data: ${issue.message}`,
      );
      return { ok: false, failureType: 'schema', issues, data };
    },
  };
}

function failure(failureType: 'no_content' | 'parse_error', issue: string): ParseOutcome<never> {
  return { ok: false, failureType, issues: [issue] };
}
