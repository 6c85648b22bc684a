import type { Message } from '@flotilla/ir';
import { GeminiAdapter } from '@flotilla/ir';
import type { Content } from '@google/genai';

const target = new GeminiAdapter();

/**
 * IR messages → Gemini `contents`, exactly as {@link createGeminiAdapter} sends them (the
 * `@flotilla/ir` `gemini` target). System messages are not contents (they become
 * `systemInstruction`). A tool result is a `functionResponse` part with the tool's name and
 * call id; media it returned follows as `inlineData` / `fileData` parts in a user content.
 */
export function toGeminiMessages(messages: Message[]): Content[] {
  return target.compile(messages).messages as Content[];
}
