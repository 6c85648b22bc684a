import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import type { AgentStreamEvent } from '../context/agent-stream-event.js';
import { promptAgent } from '../policy/prompt-agent.js';
import { createMockModel } from '../testing/index.js';
import { equipTool } from './equip-tool.js';
import { onStream } from './on-stream.js';

function collect(into: AgentStreamEvent[]) {
  return async (stream: AsyncIterable<AgentStreamEvent>) => {
    for await (const event of stream) into.push(event);
  };
}

describe('onStream', () => {
  it('sees every turn of the tool loop in order, with turn-end last in each turn', async () => {
    const events: AgentStreamEvent[] = [];
    const mock = createMockModel();
    mock.sequence([{ toolCalls: [{ id: 't1', name: 'ping', arguments: {} }] }, { json: { ok: true } }]);
    const Agent = createAgent({
      id: 'streamer',
      model: mock,
      handler: async () => {
        onStream(collect(events));
        equipTool({ name: 'ping', description: 'ping', parameters: z.object({}), handler: () => 'pong' });
        return promptAgent(z.object({ ok: z.boolean() }));
      },
    });
    await Agent();
    const turn0 = events.filter((event) => event.turnIndex === 0).map((event) => event.type);
    expect(turn0[0]).toBe('turn-start');
    expect(turn0.at(-1)).toBe('turn-end');
    expect(turn0).toContain('tool-call');
    const turn1 = events.filter((event) => event.turnIndex === 1);
    expect(turn1.map((event) => event.type)).toContain('text-delta');
    const text = turn1.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');
    expect(text).toBe('{"ok":true}');
  });

  it('feeds several consumers, and a failing consumer never breaks the agent', async () => {
    const first: AgentStreamEvent[] = [];
    const second: AgentStreamEvent[] = [];
    const mock = createMockModel().setDefaultResponse({ ok: true });
    const Agent = createAgent({
      id: 'multicast',
      model: mock,
      handler: async () => {
        onStream(collect(first));
        onStream(async () => {
          throw new Error('consumer broke');
        });
        onStream(collect(second));
        return promptAgent(z.object({ ok: z.boolean() }));
      },
    });
    await expect(Agent()).resolves.toEqual({ ok: true });
    expect(first.length).toBeGreaterThan(2);
    expect(second).toEqual(first);
  });

  it('ends the stream with the generation and waits for the consumer unless awaitOnEnd is false', async () => {
    const finished: string[] = [];
    // The detached consumer finishes only when the test lets it, after the agent returned.
    let releaseDetached = () => {};
    const detachedMayFinish = new Promise<void>((resolve) => {
      releaseDetached = resolve;
    });
    let detachedFinished = Promise.resolve();
    const mock = createMockModel().setDefaultResponse({ ok: true });
    const Agent = createAgent({
      id: 'awaited',
      model: mock,
      handler: async () => {
        onStream(async (stream) => {
          for await (const _event of stream) {
            // drain
          }
          // Still busy after the stream ended: the agent must wait for this.
          for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
          finished.push('awaited');
        });
        onStream(
          (stream) => {
            detachedFinished = (async () => {
              for await (const _event of stream) {
                // drain
              }
              await detachedMayFinish;
              finished.push('detached');
            })();
            return detachedFinished;
          },
          { awaitOnEnd: false },
        );
        return promptAgent(z.object({ ok: z.boolean() }));
      },
    });
    await Agent();
    expect(finished).toEqual(['awaited']);
    releaseDetached();
    await detachedFinished;
    expect(finished).toEqual(['awaited', 'detached']);
  });
});
