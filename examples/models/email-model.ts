/**
 * A scripted model for `EmailAgent`: it drafts the email and calls `send_email` with it, then
 * answers from the tool's result (sent, or rejected with the person's reason). No API key needed.
 */
import type { Message } from '@flotilla/ir';
import { createMockModel } from '@flotilla/runtime/testing';

export function createEmailModel() {
  const mock = createMockModel({ id: 'email-model' });
  mock
    .when((request) => request.messages.at(-1)?.role === 'tool')
    .thenDo((request) => {
      const result = String(request.messages.at(-1)?.content ?? '');
      return result.includes('rejected') ? `Not sent: ${reasonOf(result)}` : `Done: ${result}.`;
    });
  mock
    .when(() => true)
    .thenDo((request) => {
      const ask = request.messages.filter((message: Message) => message.role === 'user').at(-1);
      const [, to = 'someone', about = 'something'] =
        /Write to (.+) about (.+), then send it\./.exec(String(ask?.content)) ?? [];
      const email = { to, subject: `About ${about}`, body: `Hi ${to}, a quick note about ${about}. Best!` };
      return {
        message: {
          role: 'assistant',
          content: '',
          tool_calls: [
            {
              id: 'call_send',
              type: 'function',
              function: { name: 'send_email', arguments: JSON.stringify(email) },
            },
          ],
        },
        usage: { promptTokens: 20, completionTokens: 30, totalTokens: 50 },
        finishReason: { unified: 'tool_calls' },
      };
    });
  return mock;
}

function reasonOf(result: string): string {
  try {
    return (JSON.parse(result) as { message?: string }).message ?? result;
  } catch {
    return result;
  }
}
