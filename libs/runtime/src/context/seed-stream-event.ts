/**
 * The seed API's names for `onStream` events (`onStream(consumer, { eventNames: 'seed' })`), so
 * a consumer written for the seed (a chat UI switching on `turn_start`, `text`,
 * `structured_data` …) runs unchanged. Each is an alias of one of ours, same order, same data.
 */
import type { AgentStreamEvent } from './agent-stream-event.js';

/** A flat tool call, as the seed's stream events carry it. */
export interface SeedStreamToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** One stream event under the seed's name; `turnIndex` as in ours. */
export type SeedAgentStreamEvent = { turnIndex: number } & (
  | { type: 'turn_start' }
  | { type: 'text'; delta: string }
  | { type: 'reasoning'; delta: string }
  | { type: 'structured_data'; status: 'partial' | 'complete' | 'error'; data: unknown; isValid: boolean }
  | { type: 'tool_call_stream'; chunk: { index: number; id?: string; name?: string; arguments?: string } }
  | { type: 'tool_call'; toolCall: SeedStreamToolCall }
  | { type: 'usage'; usage: Extract<AgentStreamEvent, { type: 'usage' }>['usage'] }
  | { type: 'turn_done'; finishReason: Extract<AgentStreamEvent, { type: 'turn-end' }>['finishReason'] }
  | { type: 'error'; error: { name: string; message: string } }
);

/** Our event under the seed's name. */
export function toSeedStreamEvent(event: AgentStreamEvent): SeedAgentStreamEvent {
  const { turnIndex } = event;
  switch (event.type) {
    case 'turn-start':
      return { turnIndex, type: 'turn_start' };
    case 'text-delta':
      return { turnIndex, type: 'text', delta: event.delta };
    case 'reasoning-delta':
      return { turnIndex, type: 'reasoning', delta: event.delta };
    case 'structured-data':
      return {
        turnIndex,
        type: 'structured_data',
        status: event.status === 'streaming' ? 'partial' : event.status,
        data: event.data,
        isValid: event.isValid,
      };
    case 'tool-call-delta': {
      const { index, id, name, argumentsDelta } = event;
      const chunk = {
        index,
        ...(id === undefined ? {} : { id }),
        ...(name === undefined ? {} : { name }),
        ...(argumentsDelta === undefined ? {} : { arguments: argumentsDelta }),
      };
      return { turnIndex, type: 'tool_call_stream', chunk };
    }
    case 'tool-call': {
      const { id, function: fn } = event.toolCall;
      return { turnIndex, type: 'tool_call', toolCall: { id, name: fn.name, arguments: fn.arguments } };
    }
    case 'usage':
      return { turnIndex, type: 'usage', usage: event.usage };
    case 'turn-end':
      return { turnIndex, type: 'turn_done', finishReason: event.finishReason };
    case 'error':
      return { turnIndex, type: 'error', error: event.error };
  }
}
