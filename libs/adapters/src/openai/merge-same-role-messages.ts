/**
 * Strict role alternation for OpenAI-compatible backends that refuse two user (or two
 * assistant) messages in a row (some vLLM / TGI chat templates, older Mistral and DeepSeek
 * endpoints). Opt-in with `mergeConsecutiveSameRole`: OpenAI itself takes them as they are.
 * Consecutive messages of one role merge unless their `name`s differ; tool messages never merge
 * (each answers its own call). Text joins with a blank line; a merge that keeps media keeps the
 * parts; assistant tool calls are concatenated. The input is not mutated.
 */
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

type Part = { type: string; text?: string; [key: string]: unknown };
/** The fields a merge reads and writes, whatever the role. */
type Mergeable = { role: string; content?: unknown; name?: string; tool_calls?: unknown[] };

export function mergeConsecutiveSameRole(
  messages: readonly ChatCompletionMessageParam[],
): ChatCompletionMessageParam[] {
  const merged: Mergeable[] = [];
  for (const message of messages as readonly Mergeable[]) {
    const last = merged.at(-1);
    if (last && canMerge(last, message)) merged[merged.length - 1] = mergeTwo(last, message);
    else merged.push(message);
  }
  return merged as ChatCompletionMessageParam[];
}

function canMerge(a: Mergeable, b: Mergeable): boolean {
  if (a.role !== b.role || a.role === 'tool' || a.role === 'function') return false;
  return a.name === b.name;
}

function mergeTwo(a: Mergeable, b: Mergeable): Mergeable {
  const out: Mergeable = { ...a };
  out.content = mergeContent(a.content, b.content);
  const calls = [...(a.tool_calls ?? []), ...(b.tool_calls ?? [])];
  if (calls.length > 0) out.tool_calls = calls;
  // An assistant message with tool calls and no text keeps `content: null`, as the API expects.
  if (out.content === '' && a.role === 'assistant' && calls.length > 0) out.content = null;
  return out;
}

function mergeContent(a: unknown, b: unknown): string | Part[] {
  const partsA = toParts(a);
  const partsB = toParts(b);
  const all = [...partsA, ...partsB];
  if (all.every((part) => part.type === 'text')) {
    return all
      .map((part) => part.text ?? '')
      .filter((text) => text !== '')
      .join('\n\n');
  }
  // Keep the blank line between the two messages' text where both have some.
  if (partsA.length > 0 && partsB.length > 0) return [...partsA, { type: 'text', text: '\n\n' }, ...partsB];
  return all;
}

function toParts(content: unknown): Part[] {
  if (content === null || content === undefined || content === '') return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Part[]) : [];
}
