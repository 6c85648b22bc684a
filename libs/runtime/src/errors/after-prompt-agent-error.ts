/**
 * A draft hook (`equipSystem`, `equipInstruction`, `equipTool`, `equipToolCallLoopMiddleware`,
 * `expectValidator`, `onStream`) was called after the generation's policy (`promptAgent`,
 * `promptChat` …) had started, for example from a tool handler during the tool loop.
 */
export class AfterPromptAgentError extends Error {
  override readonly name = 'AfterPromptAgentError';
  /** The hook that was called too late. */
  readonly apiName: string;

  constructor(apiName: string) {
    super(
      `${apiName} must be called before promptAgent() in the same generation; it was called after ` +
        'promptAgent(). Move the call above the policy call, or return reborn() to start a new generation.',
    );
    this.apiName = apiName;
  }

  static is(error: unknown): error is AfterPromptAgentError {
    return error instanceof Error && error.name === 'AfterPromptAgentError';
  }
}
