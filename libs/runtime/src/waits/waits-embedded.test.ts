/**
 * Durable waits in embedded mode (`runAgent`, no worker): a sleep is an in-process timer that
 * never ends early, a wait that only the outside world could end is refused with a typed error,
 * and bad arguments are typed errors too.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import { runAgent } from '../agent/run-agent.js';
import { equipTool } from '../hooks/equip-tool.js';
import { promptChat } from '../policy/prompt-chat.js';
import { createMockModel } from '../testing/mock-model.js';
import { sleep } from './sleep.js';
import { waitForSignal } from './wait-for-signal.js';

describe('durable waits, embedded', () => {
  it('sleeps in-process until the due time', async () => {
    const Sleeper = createAgent({
      id: 'sleeper',
      handler: async () => {
        const until = Date.now() + 50;
        await sleep({ until: new Date(until) });
        return Date.now() >= until;
      },
    });
    expect(await runAgent(Sleeper, undefined)).toBe(true);
  });

  it('refuses a signal wait with DurableWaitUnavailableError, and bad arguments with InvalidWaitError', async () => {
    const Listener = createAgent({ id: 'listener', handler: async () => waitForSignal('go') });
    await expect(runAgent(Listener, undefined)).rejects.toMatchObject({
      name: 'DurableWaitUnavailableError',
    });
    const BadSleep = createAgent({ id: 'bad-sleep', handler: async () => sleep(-1) });
    await expect(runAgent(BadSleep, undefined)).rejects.toMatchObject({ name: 'InvalidWaitError' });
    const BadName = createAgent({ id: 'bad-name', handler: async () => waitForSignal('a b') });
    await expect(runAgent(BadName, undefined)).rejects.toMatchObject({ name: 'InvalidWaitError' });
  });

  it('fails a call needing approval as the tool error the model reads', async () => {
    const model = createMockModel({ id: 'm' });
    model
      .when((request) => request.messages.at(-1)?.role === 'tool')
      .thenDo((request) => String(request.messages.at(-1)?.content));
    model.when(() => true).thenCallTools([{ name: 'pay', arguments: { amount: 5 } }]);
    const Payer = createAgent({
      id: 'payer',
      model,
      handler: async () => {
        equipTool({
          name: 'pay',
          description: 'Pays.',
          parameters: z.object({ amount: z.number() }),
          needsApproval: ({ amount }) => amount > 1,
          handler: async () => 'paid',
        });
        return (await promptChat({ message: 'pay' })).data;
      },
    });
    expect(await runAgent(Payer, undefined)).toContain('DurableWaitUnavailableError');
  });
});
