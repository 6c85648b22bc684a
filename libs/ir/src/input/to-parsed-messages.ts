import { ensureValidHistory } from '../history/ensure-valid-history.js';
import type { HistoryMessage, Message, ParsedMessages } from '../types/message.js';

/**
 * The common last step of every input adapter, given the converted messages in order:
 *
 * 1. tool results without a `name` take the name of the call they answer (the Gemini target
 *    needs it; OpenAI and Anthropic results do not carry one);
 * 2. the LEADING system messages go to `system`; a system message that comes after the first
 *    non-system message stays in place in `history`, marked `_positional: true` (spec §13.2:
 *    moving it to the top would change what it applies to);
 * 3. `history` is sanitised with {@link ensureValidHistory}.
 */
export function toParsedMessages(messages: readonly Message[]): ParsedMessages {
  const named = nameToolResults(messages);
  const firstTurn = named.findIndex((message) => message.role !== 'system');
  const split = firstTurn === -1 ? named.length : firstTurn;
  const history = named.slice(split).map(toHistoryMessage);
  return { system: named.slice(0, split), history: ensureValidHistory(history) };
}

function nameToolResults(messages: readonly Message[]): Message[] {
  const names = new Map<string, string>();
  for (const message of messages)
    for (const call of message.tool_calls ?? []) names.set(call.id, call.function.name);
  return messages.map((message) => {
    if (message.role !== 'tool' || message.name !== undefined || message.tool_call_id === undefined)
      return message;
    const name = names.get(message.tool_call_id);
    return name === undefined ? message : { ...message, name };
  });
}

function toHistoryMessage(message: Message): HistoryMessage {
  if (message.role === 'system') return { ...message, role: 'system', _positional: true };
  return { ...message, role: message.role };
}
