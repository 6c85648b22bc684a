/**
 * Usage budgets embedded (no Redis): own vs aggregate with an in-process child, `onUpdate`
 * order and copies, a throwing `onUpdate`, integer costs, the price table, the tree limits
 * refused before the model is called, `recordToolUsage`, and option checks.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { runAgent } from '../agent/run-agent.js';
import { BudgetExceededError, InvalidBudgetError, InvalidCostValueError } from '../errors/budget-errors.js';
import { equipBudget } from '../hooks/equip-budget.js';
import { equipInstruction } from '../hooks/equip-instruction.js';
import { getUsageStats } from '../hooks/get-usage-stats.js';
import { recordToolUsage } from '../hooks/record-tool-usage.js';
import { promptAgent } from '../policy/prompt-agent.js';
import { createMockModel } from '../testing/mock-model.js';
import type { BudgetUpdate } from './budget-options.js';
import { costOfUsage, resolveBudget } from './budget-options.js';
import type { BudgetState } from './usage-stats.js';

const answer = z.object({ ok: z.boolean() });
const OK = { json: { ok: true } };

describe('usage stats', () => {
  it('counts own calls in own, a child’s in aggregate only, with items merged by model', async () => {
    const model = createMockModel({ id: 'm' });
    model.sequence([OK, OK, OK]);
    model.setSequenceUsage([
      { promptTokens: 10, completionTokens: 5 },
      { promptTokens: 20, completionTokens: 2 },
      { promptTokens: 1, completionTokens: 1 },
    ]);
    const seen: { child?: BudgetState; parent?: BudgetState } = {};
    const Child = createAgent({
      id: 'child',
      handler: async (_props: object) => {
        await promptAgent(answer);
        seen.child = getUsageStats();
        return 'c';
      },
    });
    const Parent = createAgent({
      id: 'parent',
      model,
      handler: async (_props: object) => {
        await promptAgent(answer);
        await Child({});
        seen.parent = getUsageStats();
        return 'p';
      },
    });
    await runAgent(Parent, {});
    expect(seen.child?.own).toMatchObject({
      promptTokens: 20,
      completionTokens: 2,
      totalTokens: 22,
      callCount: 1,
    });
    expect(seen.child?.aggregate).toEqual(seen.child?.own);
    expect(seen.parent?.own).toMatchObject({
      promptTokens: 10,
      completionTokens: 5,
      totalTokens: 15,
      callCount: 1,
    });
    expect(seen.parent?.aggregate).toMatchObject({ promptTokens: 30, totalTokens: 37, callCount: 2 });
    // The mock's calculateCost (0.001 USD / 1k tokens) prices each call in micro_usd.
    expect(seen.parent?.aggregate.costs).toEqual({ micro_usd: 15 + 22 });
    expect(seen.parent?.aggregate.items).toEqual([
      expect.objectContaining({ key: 'model:mock:m', type: 'model', callCount: 2, totalTokens: 37 }),
    ]);
  });

  it('runs onUpdate child-first, in registration order, with copies, inside each level’s context', async () => {
    const model = createMockModel({ id: 'm' })
      .setDefaultResponse({ ok: true })
      .setDefaultUsage({ promptTokens: 3 });
    const order: string[] = [];
    const updates: BudgetUpdate[] = [];
    const contexts: string[] = [];
    const Child = createAgent({
      id: 'child',
      handler: async (_props: object) => {
        equipBudget({
          onUpdate: (update) => {
            order.push('child');
            updates.push(update);
            contexts.push(getUsageStats().own.callCount === 1 ? 'child-context' : 'other');
            update.aggregate.totalTokens = 999_999; // a copy: the stats are not changed
          },
        });
        return promptAgent(answer);
      },
    });
    const Parent = createAgent({
      id: 'parent',
      model,
      handler: async (_props: object) => {
        equipBudget({ onUpdate: () => void order.push('parent-1') });
        equipBudget({
          onUpdate: (update) => {
            order.push('parent-2');
            updates.push(update);
          },
        });
        await Child({});
        return getUsageStats();
      },
    });
    const stats = (await runAgent(Parent, {})) as BudgetState;
    expect(order).toEqual(['child', 'parent-1', 'parent-2']);
    expect(contexts).toEqual(['child-context']);
    const [child, parent] = updates;
    expect(child?.own.totalTokens).toBe(3);
    expect(parent?.own.totalTokens).toBe(0);
    expect(parent?.aggregate.totalTokens).toBe(3);
    expect(parent?.delta.totalTokens).toBe(3);
    expect(stats.aggregate.totalTokens).toBe(3);
  });

  it('fails the model call path when onUpdate throws', async () => {
    const model = createMockModel({ id: 'm' })
      .setDefaultResponse({ ok: true })
      .setDefaultUsage({ promptTokens: 50 });
    const Guarded = createAgent({
      id: 'guarded',
      model,
      handler: async (_props: object) => {
        equipBudget({
          onUpdate: ({ aggregate }) => {
            if (aggregate.totalTokens > 40) throw new Error(`over 40 tokens: ${aggregate.totalTokens}`);
          },
        });
        return promptAgent(answer);
      },
    });
    await expect(runAgent(Guarded, {})).rejects.toThrow('over 40 tokens: 50');
  });

  it('refuses costs that are not non-negative integers with InvalidCostValueError', async () => {
    for (const [cost, reason] of [
      ['1', 'not_number'],
      [Number.POSITIVE_INFINITY, 'not_finite'],
      [1.5, 'not_integer'],
      [-1, 'negative'],
    ] as const) {
      const model = createMockModel({ id: 'm' }).setDefaultResponse({ ok: true });
      model.setCostCalculator(() => ({ usd_cents: cost as number }));
      const Agent = createAgent({
        id: 'priced',
        model,
        handler: async (_props: object) => promptAgent(answer),
      });
      const error = await runAgent(Agent, {}).catch((caught: unknown) => caught);
      expect(InvalidCostValueError.is(error)).toBe(true);
      expect(error).toMatchObject({ billingUnit: 'usd_cents', reason, source: 'calculateCost of mock/m' });
    }
  });

  it('counts only the own units of calculateCost’s answer, in their order', async () => {
    const model = createMockModel({ id: 'm' }).setDefaultResponse({ ok: true });
    // An inherited enumerable unit is not the answer's: Object.entries never saw it either.
    const inherited = Object.create({ inherited_unit: 7 }) as Record<string, number>;
    model.setCostCalculator(() => Object.assign(inherited, { b_unit: 2, a_unit: 1 }));
    const Agent = createAgent({
      id: 'priced',
      model,
      handler: async (_props: object) => {
        await promptAgent(answer);
        return getUsageStats().own.costs;
      },
    });
    const costs = await runAgent(Agent, {});
    expect(Object.entries(costs)).toEqual([
      ['b_unit', 2],
      ['a_unit', 1],
    ]);
  });

  it('records tool usage once per call, merged by name, unit and details', async () => {
    const Agent = createAgent({
      id: 'tools',
      handler: async (_props: object) => {
        await recordToolUsage({ name: 'search', costs: { micro_usd: 5000 }, quantity: 1, unit: 'requests' });
        await recordToolUsage({ name: 'search', costs: { micro_usd: 5000 }, quantity: 2, unit: 'requests' });
        await recordToolUsage({ name: 'search', costs: {}, quantity: 3, unit: 'pages', details: 'pdf' });
        return getUsageStats();
      },
    });
    const stats = (await runAgent(Agent, {})) as BudgetState;
    expect(stats.own.costs).toEqual({ micro_usd: 10_000 });
    expect(stats.own.callCount).toBe(0);
    expect(stats.own.items).toEqual([
      expect.objectContaining({ key: 'tool:search:requests:', quantity: 3, callCount: 2 }),
      expect.objectContaining({ key: 'tool:search:pages:pdf', quantity: 3, details: 'pdf' }),
    ]);
    await expect(
      runAgent(
        createAgent({
          id: 'bad-tool-usage',
          handler: async (_props: object) => recordToolUsage({ name: '', costs: {}, quantity: 1, unit: 'x' }),
        }),
        {},
      ),
    ).rejects.toSatisfy(
      (error) => InvalidBudgetError.is(error) && (error as InvalidBudgetError).option === 'name',
    );
  });
});

describe('usage limits', () => {
  it('refuses the call that would pass maxTokens before calling the model, counting children', async () => {
    const model = createMockModel({ id: 'm' })
      .setDefaultResponse({ ok: true })
      .setDefaultUsage({ promptTokens: 495 });
    const Child = createAgent({
      id: 'child',
      model,
      handler: async (_props: object) => {
        equipInstruction('Answer whether the sky is blue, as JSON with a boolean "ok".');
        return promptAgent(answer);
      },
    });
    const Lead = createAgent({
      id: 'lead',
      model,
      handler: async (_props: object) => {
        equipBudget({ maxTokens: 500 });
        await Child({ n: 1 });
        await Child({ n: 2 }); // the limit is the lead's: the first child spent it
        return 'done';
      },
    });
    const error = await runAgent(Lead, {}).catch((caught: unknown) => caught);
    expect(BudgetExceededError.is(error)).toBe(true);
    // The second call's prompt (counted with estimateTokens: the mock has no countTokens) would pass 500.
    expect(error).toMatchObject({ kind: 'tokens', limit: 500, spent: 495, setBy: 'root/agent:lead:0' });
    expect((error as BudgetExceededError).estimate).toBeGreaterThan(5);
    expect(model.calls.count).toBe(1);
  });

  it('holds a child to its own limit apart from its siblings', async () => {
    const model = createMockModel({ id: 'm' })
      .setDefaultResponse({ ok: true })
      .setDefaultUsage({ promptTokens: 300 });
    const Child = createAgent({
      id: 'child',
      model,
      handler: async ({ capped }: { capped: boolean }) => {
        if (capped) equipBudget({ maxTokens: 400 });
        await promptAgent(answer);
        return getUsageStats().own.totalTokens;
      },
    });
    const Lead = createAgent({
      id: 'lead',
      model,
      handler: async (_props: object) => {
        await Child({ capped: false });
        return Child({ capped: true }); // its own scope: the sibling's 300 tokens do not count
      },
    });
    expect(await runAgent(Lead, {})).toBe(300);
  });

  it('prices calls from the price table (it wins over calculateCost) and holds the tree to maxCostMicroUsd', async () => {
    const model = createMockModel({ id: 'm' })
      .setDefaultResponse({ ok: true })
      .setDefaultUsage({ promptTokens: 1_000, completionTokens: 500 });
    const prices = {
      'mock/m': { inputMicroUsdPerMillionTokens: 2_000_000, outputMicroUsdPerMillionTokens: 8_000_000 },
    };
    const costs: number[] = [];
    const Child = createAgent({ id: 'child', handler: async (_props: object) => promptAgent(answer) });
    const Spender = createAgent({
      id: 'spender',
      model,
      handler: async (_props: object) => {
        equipBudget({
          prices,
          maxCostMicroUsd: 15_000,
          onUpdate: ({ delta }) => void costs.push(delta.costs.micro_usd ?? -1),
        });
        for (let i = 0; i < 5; i++) await Child({ i });
        return 'unreachable';
      },
    });
    const error = await runAgent(Spender, {}).catch((caught: unknown) => caught);
    // 1000 × $2/M + 500 × $8/M = 2000 + 4000 micro-USD a call (not the mock's calculateCost). The
    // third starts at 12,000 plus its small prompt's estimate and passes; the fourth starts over.
    expect(costs).toEqual([6000, 6000, 6000]);
    expect(BudgetExceededError.is(error)).toBe(true);
    expect(error).toMatchObject({
      kind: 'cost',
      limit: 15_000,
      spent: 18_000,
      estimate: expect.any(Number),
      costUnit: 'micro_usd',
    });
    expect(model.calls.count).toBe(3);
  });

  it('takes a run-wide price table from runAgent({ prices }), under the agent’s own entries', async () => {
    const model = createMockModel({ id: 'm' })
      .setDefaultResponse({ ok: true })
      .setDefaultUsage({ promptTokens: 1_000 });
    const Agent = createAgent({
      id: 'priced-by-run',
      model,
      handler: async (_props: object) => {
        await promptAgent(answer);
        return getUsageStats();
      },
    });
    const prices = { m: { inputMicroUsdPerMillionTokens: 5_000_000, outputMicroUsdPerMillionTokens: 0 } };
    const stats = (await runAgent(Agent, {}, { prices })) as BudgetState;
    expect(stats.own.costs).toEqual({ micro_usd: 5_000 });
    await expect(
      runAgent(Agent, {}, { prices: { m: { inputMicroUsdPerMillionTokens: 1 } } as never }),
    ).rejects.toSatisfy(
      (error) => InvalidBudgetError.is(error) && (error as InvalidBudgetError).apiName === 'runAgent',
    );
  });

  it('rounds prices up to whole micro-USD', () => {
    const price = { inputMicroUsdPerMillionTokens: 150_000, outputMicroUsdPerMillionTokens: 600_000 };
    expect(costOfUsage(price, { promptTokens: 1, completionTokens: 0 })).toBe(1);
    expect(costOfUsage(price, { promptTokens: 1_000_000, completionTokens: 1_000_000 })).toBe(750_000);
    expect(costOfUsage(price, { promptTokens: 0, completionTokens: 0 })).toBe(0);
  });

  it('names the bad option with InvalidBudgetError', () => {
    const bad: [unknown, string][] = [
      [{ maxTokens: 0 }, 'maxTokens'],
      [{ maxTokens: 1.5 }, 'maxTokens'],
      [{ maxCostMicroUsd: -3 }, 'maxCostMicroUsd'],
      [{ maxCostMicroUsd: Number.MAX_SAFE_INTEGER + 2 }, 'maxCostMicroUsd'],
      [{ onUpdate: 'no' }, 'onUpdate'],
      [{ prices: [] }, 'prices'],
      [{ prices: { m: { inputMicroUsdPerMillionTokens: 1 } } }, 'prices["m"].outputMicroUsdPerMillionTokens'],
      [
        { prices: { m: { inputMicroUsdPerMillionTokens: 0.5, outputMicroUsdPerMillionTokens: 1 } } },
        'prices["m"].inputMicroUsdPerMillionTokens',
      ],
    ];
    for (const [options, option] of bad) {
      const error = (() => {
        try {
          resolveBudget(options as never);
        } catch (caught) {
          return caught;
        }
      })();
      expect(InvalidBudgetError.is(error), JSON.stringify(options)).toBe(true);
      expect((error as InvalidBudgetError).option).toBe(option);
    }
  });

  it('equipBudget outside an agent throws ContextNotFoundError', () => {
    expect(() => equipBudget({ maxTokens: 1 })).toThrow('equipBudget may only be called inside an agent run');
  });
});
