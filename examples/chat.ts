/**
 * `node examples/dist/chat.js [conversationId]`: a conversation resumed across runs through the
 * client library. A worker and a client in this process, on `REDIS_URL` and `FLOTILLA_PREFIX`
 * like any fleet process (so the scheduler and the `flotilla` CLI see the same runs); each
 * message is a run of its own, submitted with the same `conversationId`, and the second run
 * answers from the history the first one stored.
 */
import { randomUUID } from 'node:crypto';
import { createClient } from '@flotilla/runtime/client';
import { createWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { AssistantAgent } from './agents/assistant-agent.js';
import { models } from './chat-fleet.js';
import { runIfMain } from './mcp/run-if-main.js';

/** The messages the example sends, one run each. */
export const CHAT_MESSAGES = ['Hi, my name is Ada.', 'What is my name?'];

/** Sends {@link CHAT_MESSAGES} in `conversationId`, printing each reply, then the stored conversation's size. */
export async function runChat(conversationId: string, print: (line: string) => void): Promise<void> {
  const worker = createWorker({
    agents: [AssistantAgent],
    models,
    logger: pino({ level: 'warn' }, pino.destination(2)),
  });
  const client = createClient();
  try {
    for (const message of CHAT_MESSAGES) {
      const run = await client.submit<string>(AssistantAgent, { message }, { conversationId });
      print(`> ${message}`);
      print(await run.result());
    }
    const stored = await client.getConversation(conversationId);
    print(
      `conversation ${conversationId}: ${stored?.messages.length} messages, version ${stored?.header.version}`,
    );
  } finally {
    await client.close();
    await worker.close();
  }
}

runIfMain(import.meta.url, () =>
  runChat(process.argv[2] ?? `chat-${randomUUID().slice(0, 8)}`, (line) => console.log(line)),
);
