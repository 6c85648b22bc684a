/**
 * The three run shapes of the cost bench (`cost.mjs`), each as a Flotilla agent and as the raw
 * BullMQ job doing the same mock-model call shape (no journal, no conversation, no events):
 *   - `one-turn`: one model turn (`promptChat`), against a job calling the mock model once;
 *   - `conversation`: a turn that calls a tool, then answers (2 model turns + 1 tool), stored in a
 *     conversation of its own, against a job calling the mock model, the tool, the model again;
 *   - `fanout`: a root awaiting ten child runs (`Promise.all`), against BullMQ's step-job pattern
 *     (the parent adds ten children, `moveToWaitingChildren`, then sums `getChildrenValues`).
 * Imported by the client side (`cost.mjs`) and the worker process (`cost-worker.mjs`).
 */
import { randomUUID } from 'node:crypto';
import { createAgent, equipTool, promptChat } from '@flotilla/runtime';
import { createMockModel } from '@flotilla/runtime/testing';
import { WaitingChildrenError } from 'bullmq';
import { z } from 'zod';

export const SHAPES = ['one-turn', 'conversation', 'fanout'];
export const FANOUT_WIDTH = 10;
const MODEL_ID = 'bench-model';

/** The mock model of every shape: a tool call when the tool was not called yet, else text. */
export function benchModel() {
  const model = createMockModel({ id: MODEL_ID, record: false });
  model.when((request) => request.messages.at(-1)?.role === 'tool').thenReturn('done');
  model
    .when((request) => (request.tools ?? []).length > 0)
    .thenCallTools([{ name: 'lookup', arguments: {} }]);
  return model.setDefaultResponse('pong');
}

const lookupTool = {
  name: 'lookup',
  description: 'Looks a value up',
  parameters: z.object({}),
  handler: async () => 'found',
};

const OneTurn = createAgent({
  id: 'bench-one-turn',
  model: MODEL_ID,
  handler: async () => (await promptChat({ message: 'ping' })).data,
});

const Conversational = createAgent({
  id: 'bench-conversation',
  model: MODEL_ID,
  handler: async () => {
    equipTool(lookupTool);
    return (await promptChat({ message: 'look it up' })).data;
  },
});

const Leaf = createAgent({ id: 'bench-leaf', handler: async ({ n }) => n * 2 });
const Root = createAgent({
  id: 'bench-root',
  handler: async () => {
    const values = await Promise.all(Array.from({ length: FANOUT_WIDTH }, (_, n) => Leaf({ n })));
    return values.reduce((sum, value) => sum + value, 0);
  },
});

/** The agents a Flotilla worker serves for each shape. */
export const flotillaAgents = {
  'one-turn': [OneTurn],
  conversation: [Conversational],
  fanout: [Root, Leaf],
};

/** What one Flotilla run of `shape` is submitted as (its conversation is its own). */
export function flotillaSubmission(shape) {
  if (shape === 'one-turn') return { agent: OneTurn, input: {} };
  if (shape === 'conversation')
    return { agent: Conversational, input: {}, options: { conversationId: `bench-${randomUUID()}` } };
  return { agent: Root, input: {} };
}

/** The answer each shape's run gives (checked on a sample). */
export const expectedOutput = { 'one-turn': 'pong', conversation: 'done', fanout: 90 };

/** The raw BullMQ processor of `shape` (the worker side). */
export function rawProcessor(shape, model, queue) {
  if (shape === 'one-turn')
    return async () =>
      (await model.generate({ messages: [{ role: 'user', content: 'ping' }] })).message.content;
  if (shape === 'conversation') return () => rawConversation(model);
  return (job, token) => rawFanout(job, token, queue);
}

async function rawConversation(model) {
  const tools = [{ name: 'lookup', description: 'Looks a value up', parameters: { type: 'object' } }];
  const messages = [{ role: 'user', content: 'look it up' }];
  const first = await model.generate({ messages, tools });
  messages.push(first.message);
  for (const call of first.message.tool_calls ?? [])
    messages.push({ role: 'tool', tool_call_id: call.id, content: await lookupTool.handler() });
  return (await model.generate({ messages, tools })).message.content;
}

async function rawFanout(job, token, queue) {
  if (job.name === 'leaf') return job.data.n * 2;
  if (job.data.step === 'fan-out') {
    await Promise.all(
      Array.from({ length: FANOUT_WIDTH }, (_, n) =>
        queue.add(
          'leaf',
          { n },
          { parent: { id: job.id, queue: job.queueQualifiedName }, removeOnComplete: { age: 3600 } },
        ),
      ),
    );
    await job.updateData({ step: 'collect' });
    if (await job.moveToWaitingChildren(token)) throw new WaitingChildrenError();
  }
  const values = Object.values(await job.getChildrenValues());
  return values.reduce((sum, value) => sum + value, 0);
}

/** What one raw job of `shape` is added as. */
export function rawSubmission(shape) {
  if (shape === 'fanout') return { name: 'root', data: { step: 'fan-out' } };
  return { name: shape, data: {} };
}
