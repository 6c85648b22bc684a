import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { InvalidPromptRuntimeError, TurnBudgetExceededError } from '../errors/policy-errors.js';
import { equipInstruction } from '../hooks/equip-instruction.js';
import { createMockModel } from '../testing/index.js';
import { createAgentPolicy } from './create-agent-policy.js';
import { executeTurn } from './execute-turn.js';
import type { PromptContext } from './prompt-context.js';

describe('createAgentPolicy', () => {
  it('gives the handler the frozen draft and lets it call primitives', async () => {
    const mock = createMockModel().setDefaultResponse('raw answer');
    const firstAnswer = createAgentPolicy({
      policyId: 'first-answer',
      handler: async (runtime, suffix: string) => {
        const { message } = await executeTurn(runtime.messages, { runtime });
        return `${message.content}${suffix}`;
      },
    });
    const Agent = createAgent({
      id: 'custom',
      model: mock,
      handler: async () => {
        equipInstruction('Say something.');
        return firstAnswer('!');
      },
    });
    await expect(Agent()).resolves.toBe('raw answer!');
  });

  it('accepts spread copies of the runtime and rejects hand-built, expired and foreign ones', async () => {
    const mock = createMockModel().setDefaultResponse('ok');
    let kept: PromptContext | undefined;
    const reasons: string[] = [];
    const Other: ReturnType<typeof createAgent<undefined, string>> = createAgent({
      id: 'other',
      handler: async () =>
        executeTurn([], { runtime: kept as PromptContext }).then(
          () => 'accepted',
          (error: unknown) => (error as InvalidPromptRuntimeError).reason,
        ),
    });
    const probe = createAgentPolicy({
      policyId: 'probe',
      handler: async (runtime) => {
        kept = runtime;
        await executeTurn([], { runtime: { ...runtime } });
        for (const bad of [undefined, JSON.parse('{}') as PromptContext]) {
          await executeTurn([], { runtime: bad as PromptContext }).catch((error: unknown) => {
            if (InvalidPromptRuntimeError.is(error)) reasons.push(error.reason);
          });
        }
        reasons.push(await Other());
      },
    });
    const Agent = createAgent({
      id: 'sealed',
      model: mock,
      handler: async () => {
        await probe();
        const afterReturn = await executeTurn([], { runtime: kept as PromptContext }).catch(
          (error: unknown) => (error as InvalidPromptRuntimeError).reason,
        );
        return { afterReturn, fromChild: await Other() };
      },
    });
    await expect(Agent()).resolves.toEqual({ afterReturn: 'expired', fromChild: 'expired' });
    expect(reasons).toEqual(['missing', 'unsealed', 'foreign']);
  });

  it('shares the turn budget between parallel turns', async () => {
    const mock = createMockModel().setDefaultResponse('ok');
    const parallel = createAgentPolicy({
      policyId: 'parallel',
      handler: async (runtime) =>
        Promise.allSettled([1, 2, 3].map(() => executeTurn(runtime.messages, { runtime }))),
    });
    const Agent = createAgent({
      id: 'budget',
      model: mock,
      maxTurnSteps: 2,
      handler: async () => parallel(),
    });
    const results = await Agent();
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    const rejected = results[2] as PromiseRejectedResult;
    expect(TurnBudgetExceededError.is(rejected.reason)).toBe(true);
    expect(rejected.reason).toMatchObject({ maxTurnSteps: 2, actualTurns: 2 });
  });
});
