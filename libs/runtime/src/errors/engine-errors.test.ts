import { describe, expect, it } from 'vitest';
import {
  AfterPromptAgentError,
  ContextNotFoundError,
  DuplicateToolNameError,
  ExpectScopeError,
  MaxDepthExceededError,
  ModelNotFoundError,
  ModelRegistryNotFoundError,
  PromptAgentAlreadyCalledError,
  RebornLimitExceededError,
  ResourceNotFoundError,
  SchemaConversionError,
} from './agent-errors.js';
import {
  AttemptsExhaustedError,
  InvalidMessageHistoryError,
  InvalidPromptRuntimeError,
  InvalidToolOutputError,
  LoopMissingToolOutputError,
  ToolLoopExceededError,
  TurnBudgetExceededError,
} from './policy-errors.js';
import { AbortError, NonDeterminismError } from './run-errors.js';
import { deserializeError, serializeError } from './serialize-error.js';

const cases: [string, Error, (error: unknown) => boolean][] = [
  ['AbortError', new AbortError(), AbortError.is],
  ['AfterPromptAgentError', new AfterPromptAgentError('equipTool'), AfterPromptAgentError.is],
  [
    'AttemptsExhaustedError',
    new AttemptsExhaustedError({
      attempts: 2,
      issues: ['x'],
      lastFailureType: 'schema',
      lastData: {},
      lastRawText: '',
    }),
    AttemptsExhaustedError.is,
  ],
  ['ContextNotFoundError', new ContextNotFoundError('equipTool'), ContextNotFoundError.is],
  ['DuplicateToolNameError', new DuplicateToolNameError('t', 'equipTool'), DuplicateToolNameError.is],
  ['ScopeError', new ExpectScopeError([{ path: 'a', message: 'Required' }]), ExpectScopeError.is],
  ['InvalidMessageHistoryError', new InvalidMessageHistoryError(1, 'x'), InvalidMessageHistoryError.is],
  [
    'InvalidPromptRuntimeError',
    new InvalidPromptRuntimeError('executeTurn', 'expired'),
    InvalidPromptRuntimeError.is,
  ],
  [
    'InvalidToolOutputError',
    new InvalidToolOutputError('t', '(root)', 'undefined'),
    InvalidToolOutputError.is,
  ],
  ['LoopMissingToolOutputError', new LoopMissingToolOutputError(['c']), LoopMissingToolOutputError.is],
  ['MaxDepthExceededError', new MaxDepthExceededError(50, 'root'), MaxDepthExceededError.is],
  ['ModelNotFoundError', new ModelNotFoundError('a'), ModelNotFoundError.is],
  ['ModelRegistryNotFoundError', new ModelRegistryNotFoundError('m', 'a', []), ModelRegistryNotFoundError.is],
  [
    'NonDeterminismError',
    new NonDeterminismError('p', { kind: 'tool', fingerprint: 'a' }, { kind: 'tool', fingerprint: 'b' }),
    NonDeterminismError.is,
  ],
  [
    'PromptAgentAlreadyCalledError',
    new PromptAgentAlreadyCalledError('promptAgent'),
    PromptAgentAlreadyCalledError.is,
  ],
  ['RebornLimitExceededError', new RebornLimitExceededError(1, 2), RebornLimitExceededError.is],
  ['ResourceNotFoundError', new ResourceNotFoundError('k'), ResourceNotFoundError.is],
  [
    'SchemaConversionError',
    new SchemaConversionError('promptAgent', new Error('x')),
    SchemaConversionError.is,
  ],
  ['ToolLoopExceededError', new ToolLoopExceededError(3, 3), ToolLoopExceededError.is],
  ['TurnBudgetExceededError', new TurnBudgetExceededError(3, 3), TurnBudgetExceededError.is],
];

describe('engine errors', () => {
  it.each(cases)('%s keeps its literal name and guard across a job boundary', (name, error, is) => {
    expect(error.name).toBe(name);
    expect(is(error)).toBe(true);
    const rebuilt = deserializeError(JSON.parse(JSON.stringify(serializeError(error))));
    expect(is(rebuilt)).toBe(true);
    expect(is(new Error(error.message))).toBe(false);
  });

  it('NonDeterminismError names the position, what was recorded and what was asked', () => {
    const error = new NonDeterminismError(
      'root/agent:a:0/g0/model:0',
      { kind: 'model-turn', fingerprint: 'model-turn/v2:position=1,model=2' },
      { kind: 'model-turn', fingerprint: 'model-turn/v2:position=1,model=3' },
      ['model'],
    );
    expect(error.message).toContain('root/agent:a:0/g0/model:0');
    expect(error.message).toContain('recorded model-turn model-turn/v2:position=1,model=2');
    expect(error.message).toContain('asked for model-turn model-turn/v2:position=1,model=3 (changed: model)');
    expect(error.message).toContain("patched('<change-id>')");
    const rebuilt = deserializeError(serializeError(error)) as NonDeterminismError;
    expect(rebuilt).toMatchObject({
      position: 'root/agent:a:0/g0/model:0',
      recorded: 'model-turn model-turn/v2:position=1,model=2',
      recordedKind: 'model-turn',
      recordedFingerprint: 'model-turn/v2:position=1,model=2',
      requestedKind: 'model-turn',
      requestedFingerprint: 'model-turn/v2:position=1,model=3',
      changed: ['model'],
    });
  });
});
