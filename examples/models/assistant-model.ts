import type { Message } from '@flotilla/ir';
import { createMockModel, type MockModel } from '@flotilla/runtime/testing';
import { ASSISTANT_MODEL_ID } from '../agents/assistant-agent.js';

/**
 * A scripted stand-in for a chat model, so the assistant runs without an API key. It answers
 * from the whole history it is sent, the way a real model would: told "my name is X" it greets
 * X; asked "what is my name?" it looks for that statement in the *earlier* user messages, which
 * are there only when the run resumed a stored conversation. It keeps no state, so it serves any
 * number of runs on any number of workers.
 */
export function createAssistantModel(): MockModel {
  const model = createMockModel({ id: ASSISTANT_MODEL_ID });
  model.when(() => true).thenDo((request) => reply(request.messages));
  return model;
}

function reply(messages: Message[]): string {
  const said = messages.filter((message) => message.role === 'user').map((message) => message.content);
  const last = said.at(-1) ?? '';
  const introduced = /my name is (\p{L}+)/iu.exec(last);
  if (introduced) return `Nice to meet you, ${introduced[1]}.`;
  if (/what is my name/i.test(last)) {
    const earlier = said.slice(0, -1).map((text) => /my name is (\p{L}+)/iu.exec(text)?.[1]);
    const name = earlier.findLast((found) => found !== undefined);
    return name ? `Your name is ${name}.` : 'You have not told me your name yet.';
  }
  return `You said "${last}" (message ${said.length} of this conversation).`;
}
