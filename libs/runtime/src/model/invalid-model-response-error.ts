import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A model adapter answered with something that is not a `ModelResponse` (a tool call without
 * `function`, `tool_calls` that is not an array, no usage …). The run fails: the adapter (or the
 * provider behind it) must be fixed, the answer is never journaled.
 */
export class InvalidModelResponseError extends FlotillaError {
  static override readonly errorName = 'InvalidModelResponseError';
  static override readonly is = errorGuard(this);
  readonly provider: string;
  readonly modelId: string;
  /** What was wrong, naming the field, e.g. "`message.tool_calls.0.function` …". */
  readonly problem: string;

  constructor(model: { provider: string; id: string }, problem: string) {
    super(
      `Model "${model.id}" (${model.provider}) answered with an invalid response: ${problem}. The adapter must ` +
        'resolve with { message: { role: "assistant", content, tool_calls? }, usage, finishReason }.',
    );
    this.provider = model.provider;
    this.modelId = model.id;
    this.problem = problem;
  }
}
