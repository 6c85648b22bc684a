import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { reborn } from '../context/reborn.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { InMemoryRunJournal } from '../embedded/in-memory-run-journal.js';
import {
  AfterPromptAgentError,
  ContextNotFoundError,
  MaxDepthExceededError,
  ModelNotFoundError,
  ModelRegistryNotFoundError,
  PromptAgentAlreadyCalledError,
  RebornLimitExceededError,
} from '../errors/agent-errors.js';
import { AbortError } from '../errors/run-errors.js';
import { equipInstruction } from '../hooks/equip-instruction.js';
import { equipMemory } from '../hooks/equip-memory.js';
import { equipSystem } from '../hooks/equip-system.js';
import { equipTool } from '../hooks/equip-tool.js';
import { promptAgent } from '../policy/prompt-agent.js';
import { createMockModel } from '../testing/index.js';
import { augmentAgent } from './augment-agent.js';
import { createAgent } from './create-agent.js';
import { executeRun } from './execute-run.js';
import { runAgent } from './run-agent.js';

describe('createAgent', () => {
  it('returns a callable that passes props to the handler and resolves with its result', async () => {
    const Greeter = createAgent({
      id: 'greeter',
      handler: async ({ name }: { name: string }) => `hello ${name}`,
    });
    expect(Greeter.id).toBe('greeter');
    await expect(Greeter({ name: 'Ada' })).resolves.toBe('hello Ada');
  });

  it('passes {} when called without props', async () => {
    const Echo = createAgent({ id: 'echo', handler: async (props: unknown) => props });
    await expect(Echo()).resolves.toEqual({});
  });

  it('refuses a blank id at creation time', () => {
    expect(() => createAgent({ id: '  ', handler: async () => 1 })).toThrow(/AgentConfig.id is required/);
    expect(() => createAgent({ id: 'a', handler: async () => 1, timeoutMs: 1.5 })).toThrow(
      expect.objectContaining({ name: 'InvalidAgentConfigError', field: 'timeoutMs' }),
    );
  });

  it('fork() makes a new agent with merged config and leaves the original unchanged', async () => {
    const Base = createAgent({ id: 'base', handler: async () => 'base' });
    const Forked = Base.fork({ id: 'forked', handler: async () => 'forked' });
    expect(Forked.id).toBe('forked');
    await expect(Forked()).resolves.toBe('forked');
    await expect(Base()).resolves.toBe('base');
  });
});

describe('augmentAgent middlewares', () => {
  it('wrap the handler as an onion, may replace props and change the result', async () => {
    const order: string[] = [];
    const Agent = createAgent({
      id: 'onion',
      handler: async (props: { n: number }) => {
        order.push(`handler ${props.n}`);
        return props.n;
      },
    });
    const Augmented = augmentAgent(Agent, [
      {
        name: 'outer',
        handler: async (_context, next) => {
          order.push('outer');
          return ((await next()) as number) * 10;
        },
      },
      {
        name: 'inner',
        handler: async (context, next) => {
          order.push('inner');
          context.props = { n: context.props.n + 1 };
          return next();
        },
      },
    ]);
    await expect(Augmented({ n: 1 })).resolves.toBe(20);
    expect(order).toEqual(['outer', 'inner', 'handler 2']);
  });
});

describe('hooks outside an agent', () => {
  it('throw ContextNotFoundError naming the hook', () => {
    expect(() => equipSystem('x')).toThrow(ContextNotFoundError);
    expect(() =>
      equipTool({ name: 't', description: 'd', parameters: z.object({}), handler: () => 1 }),
    ).toThrow('equipTool may only be called inside an agent run');
  });
});

describe('reborn', () => {
  it('runs the handler again with new props and keeps memory', async () => {
    const Counter = createAgent({
      id: 'counter',
      handler: async ({ step }: { step: number }) => {
        const [seen, setSeen] = equipMemory<number[]>('seen', []);
        setSeen((previous) => [...previous, step]);
        if (step < 3) return reborn({ step: step + 1 });
        return [...seen, step];
      },
    });
    await expect(Counter({ step: 0 })).resolves.toEqual([0, 1, 2, 3]);
  });

  it('allows exactly maxReborns reborns, then fails with RebornLimitExceededError', async () => {
    let generations = 0;
    const Loop = createAgent({
      id: 'loop',
      maxReborns: 2,
      handler: async () => {
        generations++;
        return reborn();
      },
    });
    const error = await Loop().catch((caught: unknown) => caught);
    expect(RebornLimitExceededError.is(error)).toBe(true);
    expect(error).toMatchObject({ maxReborns: 2, attemptedReborns: 3 });
    expect(generations).toBe(3);
  });

  it('resets the draft every generation, so tools may be equipped again', async () => {
    const mock = createMockModel().setDefaultResponse({ ok: true });
    const tool = { name: 'noop', description: 'does nothing', parameters: z.object({}), handler: () => 'ok' };
    const Agent = createAgent({
      id: 'reequip',
      model: mock,
      handler: async ({ round }: { round: number }) => {
        equipTool(tool);
        const result = await promptAgent(z.object({ ok: z.boolean() }));
        return round < 1 ? reborn({ round: round + 1 }) : result;
      },
    });
    await expect(Agent({ round: 0 })).resolves.toEqual({ ok: true });
    expect(mock.calls.count).toBe(2);
  });
});

describe('the policy barrier', () => {
  it('refuses a second promptAgent in one generation', async () => {
    const mock = createMockModel().setDefaultResponse({ a: 1 });
    const Agent = createAgent({
      id: 'twice',
      model: mock,
      handler: async () => {
        await promptAgent(z.object({ a: z.number() }));
        return promptAgent(z.object({ a: z.number() }));
      },
    });
    await expect(Agent()).rejects.toSatisfy(PromptAgentAlreadyCalledError.is);
  });

  it('refuses draft hooks after the policy started, also from a tool handler', async () => {
    const mock = createMockModel();
    mock.sequence([{ toolCalls: [{ name: 'late', arguments: {} }] }, { json: { done: true } }]);
    const errors: unknown[] = [];
    const Agent = createAgent({
      id: 'late-equip',
      model: mock,
      handler: async () => {
        equipTool({
          name: 'late',
          description: 'tries to equip',
          parameters: z.object({}),
          handler: () => {
            try {
              equipSystem('too late');
            } catch (error) {
              errors.push(error);
            }
            return 'ok';
          },
        });
        await promptAgent(z.object({ done: z.boolean() }));
        equipInstruction('after');
      },
    });
    const error = await Agent().catch((caught: unknown) => caught);
    expect(AfterPromptAgentError.is(error)).toBe(true);
    expect(error).toMatchObject({ apiName: 'equipInstruction' });
    expect(errors.map((caught) => (caught as AfterPromptAgentError).apiName)).toEqual(['equipSystem']);
  });
});

describe('models', () => {
  it('resolves a string model id from the run models, also for nested agents', async () => {
    const mock = createMockModel().setDefaultResponse({ v: 1 });
    const Child = createAgent({ id: 'child', handler: async () => promptAgent(z.object({ v: z.number() })) });
    const Parent = createAgent({ id: 'parent', model: 'main', handler: async () => Child() });
    await expect(runAgent(Parent, undefined, { models: { main: mock } })).resolves.toEqual({ v: 1 });
  });

  it('fails with ModelRegistryNotFoundError listing the registered ids', async () => {
    const Agent = createAgent({ id: 'unknown-model', model: 'nope', handler: async () => 1 });
    const error = await runAgent(Agent, undefined, {
      models: { a: createMockModel(), b: createMockModel() },
    }).catch((caught: unknown) => caught);
    expect(ModelRegistryNotFoundError.is(error)).toBe(true);
    expect((error as Error).message).toContain("Registered ids: 'a', 'b'");
  });

  it('fails with ModelNotFoundError at prompt time when no agent in the chain has a model', async () => {
    const Agent = createAgent({ id: 'no-model', handler: async () => promptAgent(z.object({})) });
    await expect(Agent()).rejects.toSatisfy(ModelNotFoundError.is);
  });
});

describe('child agents', () => {
  it('propagate a child error to the parent with its name', async () => {
    const Child = createAgent({
      id: 'failing-child',
      handler: async () => {
        throw new RangeError('child broke');
      },
    });
    const Parent = createAgent({
      id: 'catching-parent',
      handler: async () => {
        try {
          await Child();
          return 'no error';
        } catch (error) {
          return (error as Error).name;
        }
      },
    });
    await expect(Parent()).resolves.toBe('RangeError');
  });

  it('are journaled: a replay returns the recorded result without running the child again', async () => {
    let childRuns = 0;
    const Child = createAgent({
      id: 'counted-child',
      handler: async ({ n }: { n: number }) => {
        childRuns++;
        return n * 2;
      },
    });
    const Parent = createAgent({
      id: 'fan-out',
      handler: async () => Promise.all([Child({ n: 1 }), Child({ n: 2 })]),
    });
    const journal = new InMemoryRunJournal();
    await executeRun({ agent: Parent, input: {}, services: createEmbeddedServices({ journal }) });
    expect([...journal.snapshot().keys()]).toEqual([
      'root/agent:fan-out:0/g0/agent:counted-child:0',
      'root/agent:fan-out:0/g0/agent:counted-child:1',
    ]);
    const replay = await executeRun({
      agent: Parent,
      input: {},
      services: createEmbeddedServices({ journal: new InMemoryRunJournal(journal.snapshot()) }),
    });
    expect(replay.output).toEqual([2, 4]);
    expect(childRuns).toBe(2);
  });

  it('stops unbounded recursion with MaxDepthExceededError', async () => {
    const Recursive: ReturnType<typeof createAgent<undefined, unknown>> = createAgent({
      id: 'recursive',
      handler: async (): Promise<unknown> => Recursive(),
    });
    await expect(Recursive()).rejects.toSatisfy(MaxDepthExceededError.is);
  });
});

describe('cancellation', () => {
  it('ends the run as cancelled at the next durable step', async () => {
    const controller = new AbortController();
    const mock = createMockModel().setDefaultResponse({ a: 1 });
    const Agent = createAgent({
      id: 'cancelled',
      model: mock,
      handler: async () => {
        controller.abort('user cancelled');
        return promptAgent(z.object({ a: z.number() }));
      },
    });
    const services = createEmbeddedServices({ signal: controller.signal });
    await expect(executeRun({ agent: Agent, input: {}, services })).rejects.toSatisfy(AbortError.is);
    expect(mock.calls.count).toBe(0);
    expect(services.events.events.at(-1)).toMatchObject({ type: 'run-end', status: 'cancelled' });
  });
});
