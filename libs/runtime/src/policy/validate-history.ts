/**
 * The history rules a policy enforces on the messages it is given (spec §8.2): no two
 * assistant messages in a row; after an assistant message with tool calls, only tool
 * messages until every call is answered; a tool message answers a pending call; nothing is
 * left unanswered at the end.
 */
import type { Message } from '@flotilla/ir';
import { InvalidMessageHistoryError } from '../errors/policy-errors.js';

/** @throws InvalidMessageHistoryError naming the first offending index */
export function assertValidHistory(messages: readonly Message[]): void {
  const pending: string[] = [];
  let pendingFrom = -1;
  messages.forEach((message, index) => {
    if (message.role === 'tool') {
      const at = message.tool_call_id === undefined ? -1 : pending.indexOf(message.tool_call_id);
      if (at < 0) {
        throw new InvalidMessageHistoryError(
          index,
          `tool message answers no pending tool call (${message.tool_call_id ?? 'no tool_call_id'})`,
        );
      }
      pending.splice(at, 1);
      return;
    }
    if (pending.length > 0) {
      throw new InvalidMessageHistoryError(
        index,
        `tool call(s) ${pending.join(', ')} of message ${pendingFrom} have no result`,
      );
    }
    if (message.role === 'assistant' && messages[index - 1]?.role === 'assistant') {
      throw new InvalidMessageHistoryError(index, 'two assistant messages in a row');
    }
    if (message.role === 'assistant') {
      pending.push(...(message.tool_calls ?? []).map((call) => call.id));
      pendingFrom = index;
    }
  });
  if (pending.length > 0) {
    throw new InvalidMessageHistoryError(pendingFrom, `tool call(s) ${pending.join(', ')} have no result`);
  }
}
