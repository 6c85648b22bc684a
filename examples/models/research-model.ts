import type { Message, TokenUsage } from '@flotilla/ir';
import type { ModelRequest, ModelResponse } from '@flotilla/runtime';
import { createMockModel, type MockModel } from '@flotilla/runtime/testing';
import { RESEARCH_MODEL_ID } from '../agents/research-agent.js';
import { SEARCH_NOTES_TOOL } from '../agents/search-notes-tool.js';

/**
 * A scripted stand-in for a real model, so the research agent runs without an API key. It
 * reads each request and answers the way a good model would: first it calls `search_notes`
 * with the question, then it answers from the notes the tool returned; asked for a headline
 * (the child agent), it shortens the answer. It keeps no state, so it serves any number of
 * runs, on any number of workers. Usage is estimated from the text (about 4 characters a token).
 */
export function createResearchModel(): MockModel {
  const model = createMockModel({ id: RESEARCH_MODEL_ID });
  model.when(() => true).thenDo(answerResearchRequest);
  return model;
}

/** The answer {@link createResearchModel} gives to `request`. */
export function answerResearchRequest(request: ModelRequest): ModelResponse {
  const { messages } = request;
  const system = messages.filter((message) => message.role === 'system').map((message) => message.content);
  if (system.some((text) => /headline/i.test(text))) return headlineAnswer(messages);
  if (messages.at(-1)?.role === 'tool') return findingAnswer(messages);
  return searchCall(messages);
}

function searchCall(messages: Message[]): ModelResponse {
  const question = lastUserText(messages).replace(/^Question:\s*/i, '');
  const toolCall = {
    id: `call_search_${messages.length}`,
    type: 'function' as const,
    function: { name: SEARCH_NOTES_TOOL, arguments: JSON.stringify({ query: question }) },
  };
  return {
    message: { role: 'assistant', content: '', tool_calls: [toolCall] },
    usage: estimateUsage(messages, toolCall.function.arguments),
    finishReason: { unified: 'tool_calls', raw: 'tool_calls' },
  };
}

function findingAnswer(messages: Message[]): ModelResponse {
  const notes = parseNotes(messages.at(-1)?.content ?? '');
  const finding =
    notes.length === 0
      ? { answer: 'The notes say nothing about this.', sources: [] }
      : { answer: notes.map((note) => note.text).join(' '), sources: notes.map((note) => note.id) };
  return textAnswer(messages, JSON.stringify(finding));
}

function headlineAnswer(messages: Message[]): ModelResponse {
  const answer = lastUserText(messages).replace(/^Write a headline for:\s*/i, '');
  const words = answer.split(/\s+/).filter(Boolean);
  const headline = words.length > 8 ? `${words.slice(0, 8).join(' ')}…` : words.join(' ');
  return textAnswer(messages, JSON.stringify({ headline: headline.replace(/[.;,:]…$/, '…') }));
}

function textAnswer(messages: Message[], text: string): ModelResponse {
  return {
    message: { role: 'assistant', content: text },
    usage: estimateUsage(messages, text),
    finishReason: { unified: 'stop', raw: 'stop' },
  };
}

function parseNotes(content: string): { id: string; text: string }[] {
  try {
    const value: unknown = JSON.parse(content);
    if (!Array.isArray(value)) return [];
    return value.filter(
      (note): note is { id: string; text: string } =>
        typeof note?.id === 'string' && typeof note?.text === 'string',
    );
  } catch {
    return [];
  }
}

function lastUserText(messages: Message[]): string {
  return messages.findLast((message) => message.role === 'user')?.content ?? '';
}

function estimateUsage(messages: Message[], output: string): TokenUsage {
  const promptTokens = Math.ceil(messages.reduce((sum, message) => sum + message.content.length, 0) / 4);
  const completionTokens = Math.ceil(output.length / 4);
  return { promptTokens, completionTokens, totalTokens: promptTokens + completionTokens };
}
