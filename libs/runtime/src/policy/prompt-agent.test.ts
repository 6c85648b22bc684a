import type { Message } from '@flotilla/ir';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/create-agent.js';
import {
  AttemptsExhaustedError,
  LoopMissingToolOutputError,
  ToolLoopExceededError,
} from '../errors/policy-errors.js';
import { equipInstruction } from '../hooks/equip-instruction.js';
import { equipSystem } from '../hooks/equip-system.js';
import { equipTool } from '../hooks/equip-tool.js';
import { equipToolCallLoopMiddleware } from '../hooks/equip-tool-call-loop-middleware.js';
import { expectValidator } from '../hooks/expect-validator.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import { createMockModel, type MockModel, type MockToolCall } from '../testing/index.js';
import { toolContent } from '../tools/tool-content.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { promptAgent } from './prompt-agent.js';

const Answer = z.object({ answer: z.string() });

function agentWith(
  model: ModelAdapter,
  setup: () => void = () => {},
  options: { maxRetries?: number; maxTurnSteps?: number } = {},
) {
  return createAgent({
    id: 'asker',
    model,
    ...options,
    handler: async () => {
      setup();
      return promptAgent(Answer);
    },
  });
}

/** The tool messages the model was sent on its last call. */
function lastToolMessages(mock: MockModel): Message[] {
  return (mock.calls.last?.messages ?? []).filter((message) => message.role === 'tool');
}

/** A mock that calls `toolCalls` in one batch, then answers `{ answer }`. */
function toolCallsThenAnswer(toolCalls: MockToolCall[], answer: string): MockModel {
  const mock = createMockModel();
  mock.sequence([{ toolCalls }, { json: { answer } }]);
  return mock;
}

/** A tool that returns its `text` argument. */
const echo: ToolDefinition<z.ZodObject<{ text: z.ZodString }>> = {
  name: 'echo',
  description: 'echo',
  parameters: z.object({ text: z.string() }),
  handler: ({ text }) => text,
};

describe('promptAgent', () => {
  it('sends system prompts, then instructions, and the output JSON Schema', async () => {
    const mock = createMockModel().setDefaultResponse({ answer: 'yes' });
    const Agent = agentWith(mock, () => {
      equipSystem('You are terse.');
      equipInstruction('Say yes.');
    });
    await expect(Agent()).resolves.toEqual({ answer: 'yes' });
    const call = mock.calls.first;
    expect(call?.messages.map((message) => [message.role, message.content])).toEqual([
      ['system', 'You are terse.'],
      ['user', 'Say yes.'],
    ]);
    expect(call?.schema?.jsonSchema).toMatchObject({ type: 'object', required: ['answer'] });
  });

  it('accepts JSON wrapped in prose or a fenced block', async () => {
    const mock = createMockModel();
    mock.sequence(['Sure! Here it is: {"answer": "a"} hope that helps', '```json\n{"answer": "b"}\n```']);
    await expect(agentWith(mock)()).resolves.toEqual({ answer: 'a' });
    await expect(agentWith(mock)()).resolves.toEqual({ answer: 'b' });
  });

  it('applies zod defaults and strips unknown keys', async () => {
    const mock = createMockModel().setDefaultResponse({ extra: 1 });
    const Agent = createAgent({
      id: 'defaults',
      model: mock,
      handler: async () => promptAgent(z.object({ level: z.number().default(3) })),
    });
    await expect(Agent()).resolves.toEqual({ level: 3 });
  });

  describe('when the answer fails validation', () => {
    it('retries with the failed answer and a feedback message, then succeeds', async () => {
      const mock = createMockModel();
      mock.sequence([{ json: { answer: 42 } }, { json: { answer: 'fixed' } }]);
      await expect(agentWith(mock)()).resolves.toEqual({ answer: 'fixed' });
      const retry = mock.calls.last?.messages ?? [];
      expect(retry.at(-2)).toMatchObject({ role: 'assistant', content: '{"answer":42}' });
      expect(retry.at(-1)?.content).toMatch(
        /^Output validation failed:\nField "answer": .*\nPlease fix the errors above\.$/,
      );
    });

    it('fails with AttemptsExhaustedError after maxRetries + 1 attempts', async () => {
      const mock = createMockModel().setDefaultResponse('no json here');
      const error = await agentWith(mock, undefined, { maxRetries: 2 })().catch((caught: unknown) => caught);
      expect(AttemptsExhaustedError.is(error)).toBe(true);
      expect(error).toMatchObject({
        attempts: 3,
        lastFailureType: 'no_content',
        lastRawText: 'no json here',
      });
      expect(mock.calls.count).toBe(3);
    });

    it('runs every validator and feeds all their messages back', async () => {
      const mock = createMockModel();
      mock.sequence([{ json: { answer: 'short' } }]);
      mock.setDefaultResponse({ answer: 'a long enough answer' });
      const Agent = agentWith(mock, () => {
        expectValidator(Answer, (data) => data.answer.length > 10 || 'answer too short');
        expectValidator(() => false);
        expectValidator(() => true);
      });
      const error = await Agent().catch((caught: unknown) => caught);
      // The second validator always fails, so every attempt fails with both messages.
      expect(AttemptsExhaustedError.is(error)).toBe(true);
      expect(mock.calls.all[1]?.messages.at(-1)?.content).toContain('answer too short\nValidation failed');
      expect(mock.calls.all[2]?.messages.at(-1)?.content).toMatch(/failed:\nValidation failed\nPlease/);
    });
  });

  describe('tools', () => {
    /** A tool that yields `turns` turns of the event loop between its start and its end. */
    const slow = (name: string, log: string[]): ToolDefinition =>
      ({
        name,
        description: name,
        parameters: z.object({ turns: z.number() }),
        handler: async ({ turns }: { turns: number }) => {
          log.push(`start ${name}`);
          for (let turn = 0; turn < turns; turn++) await new Promise((resolve) => setImmediate(resolve));
          log.push(`end ${name}`);
          return `${name} done`;
        },
      }) as ToolDefinition;

    it('runs one batch in parallel and returns results in call order', async () => {
      const log: string[] = [];
      const mock = toolCallsThenAnswer(
        [
          { id: 'a', name: 'first', arguments: { turns: 10 } },
          { id: 'b', name: 'second', arguments: { turns: 0 } },
        ],
        'ok',
      );
      await agentWith(mock, () => {
        equipTool(slow('first', log));
        equipTool(slow('second', log));
      })();
      expect(log.slice(0, 2)).toEqual(['start first', 'start second']);
      expect(log.indexOf('end second')).toBeLessThan(log.indexOf('end first'));
      expect(lastToolMessages(mock).map((message) => [message.tool_call_id, message.content])).toEqual([
        ['a', 'first done'],
        ['b', 'second done'],
      ]);
    });

    it('returns failures to the model as JSON error messages it can recover from', async () => {
      const mock = toolCallsThenAnswer(
        [
          { id: 'unknown', name: 'missing', arguments: {} },
          { id: 'bad-json', name: 'echo', arguments: '{not json' },
          { id: 'bad-args', name: 'echo', arguments: { text: 5 } },
          { id: 'throws', name: 'boom', arguments: {} },
          { id: 'undefined', name: 'nothing', arguments: {} },
        ],
        'recovered',
      );
      const Agent = agentWith(mock, () => {
        equipTool(echo);
        equipTool({
          name: 'boom',
          description: 'throws',
          parameters: z.object({}),
          handler: () => {
            throw new TypeError('kaboom');
          },
        });
        equipTool({
          name: 'nothing',
          description: 'returns undefined',
          parameters: z.object({}),
          handler: () => undefined,
        });
      });
      await expect(Agent()).resolves.toEqual({ answer: 'recovered' });
      const errors = lastToolMessages(mock).map(
        (message) => JSON.parse(message.content) as { error: boolean; message: string },
      );
      expect(errors.every((error) => error.error)).toBe(true);
      expect(errors.map((error) => error.message)).toEqual([
        'Tool "missing" not found. Available tools: echo, boom, nothing',
        expect.stringMatching(/^Invalid JSON arguments for tool "echo": /),
        expect.stringMatching(/^Tool "echo" execution failed: Invalid arguments for tool "echo": text: /),
        'Tool "boom" execution failed: TypeError: kaboom',
        expect.stringMatching(
          /^Tool "nothing" execution failed: InvalidToolOutputError: .*Reason: undefined/,
        ),
      ]);
    });

    it('gives tools a stable idempotency key and the run signal, as own fields a spread copies', async () => {
      const seen: { key: string; aborted: boolean; keys: string[]; spread: unknown }[] = [];
      const mock = toolCallsThenAnswer([{ id: 'call_7', name: 'pay', arguments: {} }], 'paid');
      const Agent = agentWith(mock, () =>
        equipTool({
          name: 'pay',
          description: 'side effect',
          parameters: z.object({}),
          handler: (_args, context) => {
            seen.push({
              key: context.idempotencyKey,
              aborted: context.signal.aborted,
              keys: Object.keys(context),
              spread: { ...context }.signal,
            });
            return 'ok';
          },
        }),
      );
      const { runAgentWithOutcome } = await import('../agent/run-agent.js');
      await runAgentWithOutcome(Agent, undefined, { runId: 'run-1' });
      expect(seen).toEqual([
        {
          key: 'run-1:call_7',
          aborted: false,
          keys: ['idempotencyKey', 'signal', 'toolCallId', 'agentId'],
          spread: expect.any(AbortSignal),
        },
      ]);
    });

    it("aborts a tool's signal when the run is cancelled, read before or during the cancel", async () => {
      const cancel = new AbortController();
      const seen: boolean[] = [];
      const mock = toolCallsThenAnswer(
        [
          { id: 'early', name: 'wait', arguments: { readFirst: true } },
          { id: 'late', name: 'wait', arguments: { readFirst: false } },
        ],
        'never',
      );
      const Agent = agentWith(mock, () =>
        equipTool({
          name: 'wait',
          description: 'waits for the cancel',
          parameters: z.object({ readFirst: z.boolean() }),
          handler: async ({ readFirst }, context) => {
            const early = readFirst ? context.signal : undefined;
            if (!readFirst) cancel.abort(new Error('cancelled by the test'));
            // The early call waits for the late one's cancel (the signal the test controls).
            if (!cancel.signal.aborted)
              await new Promise((resolve) =>
                cancel.signal.addEventListener('abort', resolve, { once: true }),
              );
            seen.push((early ?? context.signal).aborted);
            return 'ok';
          },
        }),
      );
      const { runAgentWithOutcome } = await import('../agent/run-agent.js');
      await expect(runAgentWithOutcome(Agent, undefined, { signal: cancel.signal })).rejects.toThrow();
      expect(seen).toEqual([true, true]);
    });

    it('carries toolContent images into the tool message as IR attachments', async () => {
      const mock = toolCallsThenAnswer([{ id: 'shot', name: 'screenshot', arguments: {} }], 'seen');
      const Agent = agentWith(mock, () =>
        equipTool({
          name: 'screenshot',
          description: 'takes a screenshot',
          parameters: z.object({}),
          handler: () =>
            toolContent([
              { type: 'text', text: 'the screen' },
              { type: 'image', image: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
              { type: 'image', image: { url: 'https://example.com/cat.jpg' } },
            ]),
        }),
      );
      await Agent();
      const [message] = lastToolMessages(mock);
      expect(message).toMatchObject({
        role: 'tool',
        tool_call_id: 'shot',
        name: 'screenshot',
        content: 'the screen',
        attachments: [
          { mediaType: 'image/png', data: 'iVBORw0KGgo=', source: 'base64' },
          { mediaType: 'image/jpeg', data: 'https://example.com/cat.jpg', source: 'url' },
        ],
      });
    });

    it('wraps tools with equipTool middlewares outside the tool’s own, which may change the result', async () => {
      const order: string[] = [];
      const mock = toolCallsThenAnswer([{ id: 'x', name: 'wrapped', arguments: {} }], 'ok');
      const Agent = agentWith(mock, () =>
        equipTool(
          {
            name: 'wrapped',
            description: 'wrapped',
            parameters: z.object({}),
            handler: () => {
              order.push('handler');
              return 'raw';
            },
            middlewares: [
              {
                name: 'static',
                handler: async (_context, next) => {
                  order.push('static');
                  return `${await next()}+static`;
                },
              },
            ],
          },
          {
            middleware: [
              {
                name: 'dynamic',
                handler: async (context, next) => {
                  order.push(`dynamic ${context.toolName}`);
                  return `${await next()}+dynamic`;
                },
              },
            ],
          },
        ),
      );
      await Agent();
      expect(order).toEqual(['dynamic wrapped', 'static', 'handler']);
      expect(lastToolMessages(mock)[0]?.content).toBe('raw+static+dynamic');
    });

    it('fails with ToolLoopExceededError when the model still calls tools on the last allowed turn', async () => {
      let runs = 0;
      const mock = createMockModel();
      mock.when(() => true).thenCallTools([{ name: 'again', arguments: {} }]);
      const Agent = agentWith(
        mock,
        () =>
          equipTool({
            name: 'again',
            description: 'loops',
            parameters: z.object({}),
            handler: () => {
              runs++;
              return 'more';
            },
          }),
        { maxTurnSteps: 3 },
      );
      const error = await Agent().catch((caught: unknown) => caught);
      expect(ToolLoopExceededError.is(error)).toBe(true);
      expect(error).toMatchObject({ maxTurnSteps: 3, actualTurns: 3 });
      expect(mock.calls.count).toBe(3);
      expect(runs).toBe(2);
    });
  });

  describe('tool-call-loop middleware', () => {
    it('sees each batch first, may answer blocked calls itself, and does not run for plain answers', async () => {
      const batches: string[][] = [];
      const mock = toolCallsThenAnswer(
        [
          { id: 'ok', name: 'echo', arguments: { text: 'allowed' } },
          { id: 'no', name: 'echo', arguments: { text: 'blocked' } },
        ],
        'done',
      );
      const Agent = agentWith(mock, () => {
        equipTool(echo);
        equipToolCallLoopMiddleware({
          name: 'guard',
          handler: async (context, calls, next) => {
            batches.push(context.originalCalls.map((call) => call.id));
            const allowed = calls.filter((call) => call.id !== 'no');
            return [...(await next(allowed)), { callId: 'no', content: 'blocked by policy' }];
          },
        });
      });
      await Agent();
      expect(batches).toEqual([['ok', 'no']]);
      expect(lastToolMessages(mock).map((message) => message.content)).toEqual([
        'allowed',
        'blocked by policy',
      ]);
    });

    it('fails with LoopMissingToolOutputError when a call is left without output', async () => {
      const mock = toolCallsThenAnswer([{ id: 'lost', name: 'echo', arguments: { text: 'x' } }], 'x');
      const Agent = agentWith(mock, () => {
        equipTool(echo);
        equipToolCallLoopMiddleware({ name: 'drop-all', handler: async () => [] });
      });
      const error = await Agent().catch((caught: unknown) => caught);
      expect(LoopMissingToolOutputError.is(error)).toBe(true);
      expect(error).toMatchObject({ missingCallIds: ['lost'] });
    });
  });
});
