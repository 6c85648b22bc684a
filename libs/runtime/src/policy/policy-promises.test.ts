import { promiseHooks } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { runAgent } from '../agent/run-agent.js';
import { equipTool } from '../hooks/equip-tool.js';
import type { ModelAdapter, ModelResponse } from '../model/model-adapter.js';
import { promptChat } from './prompt-chat.js';

/**
 * The policy path (`promptChat` → loop → turn → durable step → usage → model call) has no
 * async layer per layer: each adds at most one `.then`. Every promise pays the async-context
 * hooks on a worker, so this counts them (no timing) around a call inside an agent, with a model
 * that makes exactly one promise per call.
 */
const usage = { promptTokens: 3, completionTokens: 2, totalTokens: 5 };
const answer = (response: Omit<ModelResponse, 'usage' | 'finishReason'>): ModelResponse => ({
  ...response,
  usage,
  finishReason: { unified: 'stop' },
});

function countingModel(): ModelAdapter {
  return {
    id: 'counting',
    provider: 'test',
    generate: (request) =>
      Promise.resolve(
        request.messages.at(-1)?.role === 'tool' || !request.tools?.length
          ? answer({ message: { role: 'assistant', content: 'done' } })
          : answer({
              message: {
                role: 'assistant',
                content: '',
                tool_calls: [{ id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{}' } }],
              },
            }),
      ),
  };
}

async function promisesOf(work: () => Promise<unknown>): Promise<{ count: number; result: unknown }> {
  let count = 0;
  const stop = promiseHooks.onInit(() => {
    count += 1;
  });
  try {
    const result = await work();
    return { count, result };
  } finally {
    stop();
  }
}

/** The promises of one `promptChat` inside an embedded run of an agent (`equip` runs first). */
async function promisesOfChat(id: string, message: string, equip = () => {}) {
  let measured: { count: number; result: unknown } | undefined;
  const Agent = createAgent({
    id,
    model: countingModel(),
    handler: async () => {
      equip();
      measured = await promisesOf(() => promptChat({ message }));
      return 'ok';
    },
  });
  await runAgent(Agent, undefined);
  return measured;
}

describe('promises of the policy path', () => {
  it('one model turn: at most 15 promises from promptChat to its answer', async () => {
    const measured = await promisesOfChat('one-turn-promises', 'ping');
    expect(measured?.result).toMatchObject({ data: 'done' });
    // 14 here (the model's 1, the embedded journal's record, the agent's own awaits); 15 while the
    // answer's check had a `.then` of its own (round 9), 31 while each layer was an async function
    // (before issue 15, round 7).
    expect(measured?.count).toBeLessThanOrEqual(15);
  });

  it('two model turns and one tool call: at most 39 promises', async () => {
    const measured = await promisesOfChat('tool-turn-promises', 'look it up', () =>
      equipTool({
        name: 'lookup',
        description: 'Looks up',
        parameters: z.object({}),
        handler: async () => 'found',
      }),
    );
    expect(measured?.result).toMatchObject({ data: 'done' });
    // 38 here; 40 with a `.then` per answer's check, 78 with an async function per layer.
    expect(measured?.count).toBeLessThanOrEqual(39);
  });
});
