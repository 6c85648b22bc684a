import { createAgent, equipSystem, promptChat } from '@flotilla/runtime';

/** The model id the assistant asks for; the worker (or `runAgent`) maps it to an adapter. */
export const ASSISTANT_MODEL_ID = 'assistant-model';

/**
 * A chat agent: one user message in, the assistant's reply out, through `promptChat`. Submitted
 * with a `conversationId`, each run loads that conversation's stored history before the model
 * call and appends the new user message and the reply, so the next run with the same id goes
 * on where this one stopped — on any worker.
 * @example
 * const run = await client.submit(AssistantAgent, { message: 'Hi, I am Ada.' }, { conversationId: 'c-1' });
 */
export const AssistantAgent = createAgent({
  id: 'assistant',
  model: ASSISTANT_MODEL_ID,
  handler: async ({ message }: { message: string }): Promise<string> => {
    equipSystem('You are a friendly assistant. Remember what the user tells you.');
    const { data } = await promptChat({ message });
    return data as string;
  },
});
