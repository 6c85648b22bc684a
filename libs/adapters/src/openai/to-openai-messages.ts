import type { Message } from '@flotilla/ir';
import { OpenAIAdapter } from '@flotilla/ir';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';

const target = new OpenAIAdapter();

/**
 * IR messages → Chat Completions `messages`, exactly as {@link createOpenAIAdapter} sends them
 * (the `@flotilla/ir` `openai` target): system inline, tool results as `tool` messages, and
 * media returned by tools moved into one `user` message after the run of tool messages,
 * because tool messages only take text.
 */
export function toOpenAIMessages(messages: Message[]): ChatCompletionMessageParam[] {
  return target.compile(messages).messages as ChatCompletionMessageParam[];
}
