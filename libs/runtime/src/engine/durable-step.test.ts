import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { equipTool } from '../hooks/equip-tool.js';
import type { ModelAdapter, ModelResponse } from '../model/model-adapter.js';
import { promptChat } from '../policy/prompt-chat.js';

/** An adapter that answers from objects it keeps (and could change later): the run must not share them. */
function keepingModel(answers: ModelResponse[]): ModelAdapter {
  let next = 0;
  return {
    provider: 'test',
    id: 'keeping',
    generate: async () => answers[next++] as ModelResponse,
  };
}

const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const stop = { unified: 'stop' as const };

describe('durableStep: the live value is what a replay reads', () => {
  it('gives the live run a copy of a plain model answer, equal to its journaled value', async () => {
    const answers: ModelResponse[] = [
      {
        message: {
          role: 'assistant',
          content: '',
          tool_calls: [{ id: 'c1', type: 'function', function: { name: 'zero', arguments: '{}' } }],
        },
        usage,
        finishReason: { unified: 'tool_calls' },
      },
      { message: { role: 'assistant', content: 'done' }, usage, finishReason: stop },
    ];
    const seen: unknown[] = [];
    const agent = createAgent({
      id: 'reads-back',
      model: 'keeping',
      handler: async () => {
        // -0 reads back from JSON as 0: the live tool result must be 0 too.
        equipTool({ name: 'zero', description: 'Zero', parameters: z.object({}), handler: async () => -0 });
        const { delta } = await promptChat({ message: 'go' });
        seen.push(...delta);
        return 'ok';
      },
    });
    const journal = new InMemoryRunJournal();
    const services = createEmbeddedServices({ models: { keeping: keepingModel(answers) }, journal });
    await executeRun({ agent, input: {}, services });

    const entries = [...journal.snapshot().values()];
    const turns = entries.filter((entry) => entry.kind === 'model-turn');
    const tool = entries.find((entry) => entry.kind === 'tool');
    expect(turns.map((entry) => (entry.outcome as { value: ModelResponse }).value.message)).toEqual([
      seen[0],
      seen[2],
    ]);
    expect(seen[0]).not.toBe(answers[0]?.message);
    expect(seen[2]).not.toBe(answers[1]?.message);
    expect(tool?.outcome).toEqual({ ok: true, value: 0 });
    expect(seen[1]).toMatchObject({ role: 'tool', content: '0' });
  });
});
