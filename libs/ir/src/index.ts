/**
 * @flotilla/ir — the provider-neutral conversation IR.
 *
 * Input adapters (`fromOpenAI`, `fromAnthropic`, `fromGemini`, `fromOpenAIResponses`) turn a
 * provider's messages into IR and sanitise them; target adapters (`OpenAIAdapter`, …, or
 * `getAdapter(name)`) compile IR into a provider payload; `ContextChef` ties system prompt,
 * history and target together. Pure: no I/O.
 */

export { IRValidationError } from './errors.js';
export * from './types/index.js';
