import type { Message } from '@flotilla/ir';
import type { ModelRequest, ModelResponse } from '@flotilla/runtime';
import { createMockModel, type MockModel } from '@flotilla/runtime/testing';

/** The model id the analyst child agent asks for. */
export const ANALYST_MODEL_ID = 'mcp-analyst-model';

/**
 * A scripted stand-in for a real model, so the parent/child example runs without an API key.
 * It reads the child's instruction (`Working directory: …`, `Configuration: <JSON>`,
 * `Task: …`) and answers with the project name, the configuration's keys (sorted) and a
 * one-line summary, as JSON. Every request is recorded in `calls`.
 */
export function createAnalystModel(): MockModel {
  const model = createMockModel({ id: ANALYST_MODEL_ID });
  model.when(() => true).thenDo(answerAnalystRequest);
  return model;
}

/** The answer {@link createAnalystModel} gives to `request`. */
export function answerAnalystRequest(request: ModelRequest): ModelResponse {
  const instruction = lastUserText(request.messages);
  const field = (name: string) => new RegExp(`^${name}: (.*)$`, 'm').exec(instruction)?.[1] ?? '';
  const config = parseObject(field('Configuration'));
  const project = typeof config.project === 'string' ? config.project : 'unknown';
  const settings = Object.keys(config).sort();
  const summary = `${field('Task') || 'analysis'}: ${project} in ${field('Working directory')} has ${settings.length} settings (${settings.join(', ')})`;
  return {
    message: { role: 'assistant', content: JSON.stringify({ project, settings, summary }) },
    usage: { promptTokens: 0, completionTokens: 0, totalTokens: 0 },
    finishReason: { unified: 'stop', raw: 'stop' },
  };
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

function lastUserText(messages: Message[]): string {
  return messages.findLast((message) => message.role === 'user')?.content ?? '';
}
