import { describe, expect, it } from 'vitest';
import { PayloadTooLargeError, ValueTooDeepError } from '../json/json-bounds-errors.js';
import { checkModelResponse, checkModelResponseText } from './check-model-response.js';
import { InvalidModelResponseError } from './invalid-model-response-error.js';

const model = { id: 'gpt', provider: 'openai' };
const limits = { maxDepth: 32, maxBytes: 10_000 };
const usage = { promptTokens: 1, completionTokens: 1, totalTokens: 2 };
const answer = (message: Record<string, unknown>) => ({
  message: { role: 'assistant', content: '', ...message },
  usage,
  finishReason: { unified: 'stop' },
});
const call = (fields: Record<string, unknown>) => ({ id: 'c1', type: 'function', ...fields });

describe('checkModelResponse', () => {
  it('returns a well-formed answer unchanged, arguments that are not JSON included (the tool call reports them)', () => {
    const response = answer({ tool_calls: [call({ function: { name: 't', arguments: '{oops' } })] });
    expect(checkModelResponse(response, model, limits)).toBe(response);
  });

  it.each([
    ['a tool call without function', answer({ tool_calls: [call({})] }), '`message.tool_calls.0.function`'],
    [
      'tool_calls that is not an array',
      answer({ tool_calls: { 0: call({}) } }),
      '`message.tool_calls` must be an array',
    ],
    [
      'arguments that are an object',
      answer({ tool_calls: [call({ function: { name: 't', arguments: {} } })] }),
      'must be JSON text',
    ],
    [
      'no usage',
      { message: { role: 'assistant', content: '' }, finishReason: { unified: 'stop' } },
      '`usage`',
    ],
    ['not an object', 42, 'the answer must be an object'],
  ])('refuses %s with InvalidModelResponseError naming the field', (_what, response, problem) => {
    expect(() => checkModelResponse(response, model, limits)).toThrowError(
      expect.objectContaining({
        name: InvalidModelResponseError.errorName,
        modelId: 'gpt',
        message: expect.stringContaining(problem),
      }),
    );
  });

  it('refuses tool-call arguments nested past the limit, naming the call and the model', () => {
    const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
    const response = answer({ tool_calls: [call({ function: { name: 'search', arguments: deep } })] });
    expect(() => checkModelResponse(response, model, { ...limits, maxBytes: 100_000 })).toThrowError(
      expect.objectContaining({
        name: ValueTooDeepError.errorName,
        source: 'the arguments of tool call "c1" (search) from model "gpt"',
      }),
    );
  });

  it('gives the JSON text it checked, which the journal stores instead of writing it again', () => {
    const response = answer({
      content: 'a "quoted" [text]',
      tool_calls: [call({ function: { name: 't', arguments: '{}' } })],
    });
    const checked = checkModelResponseText(response, model, limits);
    expect(checked.response).toBe(response);
    expect(checked.text).toBe(JSON.stringify(response));
  });

  it.each([
    [
      'a count that is not finite',
      { ...answer({}), usage: { ...usage, totalTokens: Number.POSITIVE_INFINITY } },
      '`usage.totalTokens`',
    ],
    [
      'an empty tool name',
      answer({ tool_calls: [call({ function: { name: '', arguments: '{}' } })] }),
      'must not be empty',
    ],
    ['another role', answer({ role: 'user' }), 'must be "assistant"'],
  ])("refuses %s with the schema's message", (_what, response, problem) => {
    expect(() => checkModelResponse(response, model, limits)).toThrowError(
      expect.objectContaining({
        name: InvalidModelResponseError.errorName,
        message: expect.stringContaining(problem),
      }),
    );
  });

  it('accepts an answer that is not a plain object when the schema does (class instances, as before)', () => {
    class Answer {
      message = { role: 'assistant', content: 'hi' };
      usage = usage;
      finishReason = { unified: 'stop' };
    }
    const response = new Answer();
    expect(checkModelResponse(response, model, limits)).toBe(response);
  });

  it('copies a plain answer as it reads back from its text: same fields, same order, nothing shared', () => {
    const finishReason = { unified: 'tool_calls', raw: 'tool_use' };
    const response = {
      usage: { ...usage, details: { cacheReadTokens: 3 } },
      message: {
        content: 'x',
        tool_calls: [
          { type: 'function', id: 'c1', function: { arguments: '{}', name: 't' }, thoughtSignature: 's' },
        ],
        role: 'assistant',
      },
      finishReason,
    };
    const { text, copy } = checkModelResponseText(response, model, limits);
    expect(copy).toStrictEqual(JSON.parse(text as string));
    expect(JSON.stringify(copy)).toBe(text);
    expect(copy).not.toBe(response);
    expect(copy?.finishReason).not.toBe(finishReason);
    expect(copy?.message.tool_calls?.[0]).not.toBe(response.message.tool_calls[0]);
  });

  it.each([
    ['an undefined field (JSON leaves it out)', answer({ tool_calls: undefined })],
    ['a field the ModelResponse does not name', answer({ thinking: { thinking: 'hm' } })],
    ['a count of -0 (JSON reads it back as 0)', { ...answer({}), usage: { ...usage, promptTokens: -0 } }],
    [
      'a raw finish reason that is not a string',
      { ...answer({}), finishReason: { unified: 'stop', raw: 1 } },
    ],
    [
      'a tool call with an extra field',
      answer({ tool_calls: [call({ function: { name: 't', arguments: '{}' }, x: 1 })] }),
    ],
  ])('checks an answer with %s the long way, and copies nothing', (_what, response) => {
    const checked = checkModelResponseText(response, model, limits);
    expect(checked.response).toBe(response);
    expect(checked.text).toBe(JSON.stringify(response));
    expect(checked.copy).toBeUndefined();
  });

  it('checks a plain answer against a depth limit below its own nesting the long way', () => {
    const response = answer({ tool_calls: [call({ function: { name: 't', arguments: '{}' } })] });
    expect(() => checkModelResponse(response, model, { ...limits, maxDepth: 4 })).toThrow(ValueTooDeepError);
    expect(checkModelResponseText(answer({}), model, { ...limits, maxDepth: 2 }).copy).toBeUndefined();
  });

  it('refuses an answer larger than maxBytes', () => {
    expect(() => checkModelResponse(answer({ content: 'x'.repeat(20_000) }), model, limits)).toThrow(
      PayloadTooLargeError,
    );
  });
});
