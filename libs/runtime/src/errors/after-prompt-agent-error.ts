import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A draft hook (`equipSystem`, `equipInstruction`, `equipTool`, `equipToolCallLoopMiddleware`,
 * `expectValidator`, `onStream`) was called after the generation's policy (`promptAgent`,
 * `promptChat` …) had started, for example from a tool handler during the tool loop.
 */
export class AfterPromptAgentError extends FlotillaError {
  static override readonly errorName = 'AfterPromptAgentError';
  static override readonly is = errorGuard(this);
  /** The hook that was called too late. */
  readonly apiName: string;

  constructor(apiName: string) {
    super(
      `${apiName} must be called before promptAgent() in the same generation; it was called after ` +
        'promptAgent(). Move the call above the policy call, or return reborn() to start a new generation.',
    );
    this.apiName = apiName;
  }
}
