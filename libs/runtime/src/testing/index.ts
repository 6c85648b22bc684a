/**
 * Test doubles for the runtime: {@link createMockModel}, a scripted model adapter that records
 * every call.
 */
export type { MockResponder, MockResponse, MockToolCall, MockUsage } from './mock-action.js';
export { mockResponse } from './mock-action.js';
export type { MockCall, MockCalls } from './mock-call-log.js';
export type { MockCondition, MockPredicate } from './mock-condition.js';
export type { MockModel, MockModelOptions } from './mock-model.js';
export { createMockModel } from './mock-model.js';
export { MockModelNoRuleError } from './mock-model-no-rule-error.js';
export type { MockPayload } from './mock-payload.js';
export type { MockRuleBuilder } from './mock-rule-builder.js';
export type { MockStep, MockStepOptions } from './mock-step.js';
