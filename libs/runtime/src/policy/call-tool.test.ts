import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import { InvalidToolArgumentsError } from '../errors/policy-errors.js';
import { jsonSchema } from '../tools/json-schema.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { callTool } from './call-tool.js';

function counter() {
  const calls: number[] = [];
  const tool: ToolDefinition<z.ZodObject<{ n: z.ZodNumber }>> = {
    name: 'double',
    description: 'doubles n',
    parameters: z.object({ n: z.number() }),
    handler: ({ n }) => {
      calls.push(n);
      if (n < 0) throw new Error('negative');
      return { doubled: n * 2 };
    },
    middlewares: [
      { name: 'tag', handler: async (_context, next) => ({ ...((await next()) as object), tagged: true }) },
    ],
  };
  return { tool, calls };
}

describe('callTool', () => {
  it('returns the raw result through the tool’s own middlewares, outside any agent', async () => {
    const { tool, calls } = counter();
    await expect(callTool(tool, { n: 2 })).resolves.toEqual({ doubled: 4, tagged: true });
    expect(calls).toEqual([2]);
  });

  it('throws the handler’s error instead of handing it to a model', async () => {
    const { tool } = counter();
    await expect(callTool(tool, { n: -1 })).rejects.toThrow('negative');
  });

  it('refuses arguments the schema refuses with InvalidToolArgumentsError, before the handler runs', async () => {
    const { tool, calls } = counter();
    const error = await callTool(tool, { n: 'two' } as never).catch((caught: unknown) => caught);
    expect(InvalidToolArgumentsError.is(error)).toBe(true);
    expect((error as InvalidToolArgumentsError).issues[0]).toMatch(/^n: /);
    expect(calls).toEqual([]);
  });

  it('checks a JSON Schema tool’s arguments against the schema as written', async () => {
    const greet = {
      name: 'greet',
      description: 'greets',
      parameters: jsonSchema<{ who: string }>({
        type: 'object',
        properties: { who: { type: 'string', minLength: 1 } },
        required: ['who'],
        additionalProperties: false,
      }),
      handler: ({ who }: { who: string }) => `hi ${who}`,
    };
    await expect(callTool(greet, { who: 'Ada' })).resolves.toBe('hi Ada');
    const error = await callTool(greet, { who: '' }).catch((caught: unknown) => caught);
    expect(InvalidToolArgumentsError.is(error)).toBe(true);
    expect((error as InvalidToolArgumentsError).issues[0]).toMatch(/^who: /);
  });

  it('is journaled inside an agent: a replay returns the recorded results and errors without running the tool again', async () => {
    const { tool, calls } = counter();
    const Agent = createAgent({
      id: 'caller',
      handler: async () => {
        const first = await callTool(tool, { n: 1 });
        const second = await callTool(tool, { n: 5 });
        const failed = await callTool(tool, { n: -3 }).catch((error: Error) => error.message);
        return { first, second, failed };
      },
    });
    const journal = new InMemoryRunJournal();
    const run = () =>
      executeRun({ agent: Agent, input: undefined, services: createEmbeddedServices({ journal }) });
    const live = await run();
    expect(live.output).toEqual({
      first: { doubled: 2, tagged: true },
      second: { doubled: 10, tagged: true },
      failed: 'negative',
    });
    expect(calls).toEqual([1, 5, -3]);
    const replayed = await run();
    expect(replayed.output).toEqual(live.output);
    expect(calls).toEqual([1, 5, -3]);
  });
});
