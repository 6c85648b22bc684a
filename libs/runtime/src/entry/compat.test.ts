import { describe, expect, it } from 'vitest';
import { AttemptsExhaustedError, ExpectScopeError, ModelNotFoundError, toolContent } from '../index.js';
import {
  isAttemptsExhaustedError,
  isExpectScopeError,
  isModelNotFoundError,
  isScopeError,
  SEED_TOOL_CONTENT_KEY,
} from './compat.js';

describe('@flotilla/runtime/compat', () => {
  it('has the seed’s name-based isXxxError guards, which also match an error rebuilt from a stored record', () => {
    const error = new ModelNotFoundError('agent');
    expect(isModelNotFoundError(error)).toBe(true);
    expect(ModelNotFoundError.is(error)).toBe(true);
    const rebuilt = Object.assign(new Error('from another process'), { name: 'ModelNotFoundError' });
    expect(isModelNotFoundError(rebuilt)).toBe(true);
    expect(isAttemptsExhaustedError(error)).toBe(false);
    expect(isModelNotFoundError('ModelNotFoundError')).toBe(false);
    expect(isModelNotFoundError(null)).toBe(false);
    expect(AttemptsExhaustedError.errorName).toBe('AttemptsExhaustedError');
  });

  it('names the scope error ScopeError, as the seed does', () => {
    const error = new ExpectScopeError([]);
    expect(isScopeError(error)).toBe(true);
    expect(isExpectScopeError(error)).toBe(true);
  });

  it('exports the seed’s tool-content marker key', () => {
    expect(SEED_TOOL_CONTENT_KEY).toBe('$rejellyContent');
    expect(Object.keys(toolContent([]))).toEqual(['$flotillaContent']);
  });
});
