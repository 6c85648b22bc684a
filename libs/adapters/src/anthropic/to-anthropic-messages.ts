import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { Message } from '@flotilla/ir';
import { AnthropicAdapter } from '@flotilla/ir';

const target = new AnthropicAdapter();

/**
 * IR messages → Messages API `messages`, exactly as {@link createAnthropicAdapter} sends them
 * (the `@flotilla/ir` `anthropic` target). System messages are not messages (they become
 * `system`); tool results are `tool_result` blocks in a user turn, media included; signed
 * thinking comes first in its assistant turn; same-role turns are merged.
 */
export function toAnthropicMessages(messages: Message[]): MessageParam[] {
  return target.compile(messages).messages as MessageParam[];
}
