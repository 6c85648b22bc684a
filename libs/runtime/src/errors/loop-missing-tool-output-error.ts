import { errorGuard, FlotillaError } from '@flotilla/ir';

/** A tool-call-loop middleware returned no output for some of the model's tool calls. */
export class LoopMissingToolOutputError extends FlotillaError {
  static override readonly errorName = 'LoopMissingToolOutputError';
  static override readonly is = errorGuard(this);
  readonly missingCallIds: string[];

  constructor(missingCallIds: string[]) {
    super(
      `ToolCallLoopMiddleware returned incomplete ToolOutput[]: missing result for tool_call_id(s): ${missingCallIds.join(', ')}. ` +
        'Answer blocked calls with a synthetic output merged with the result of next(...).',
    );
    this.missingCallIds = missingCallIds;
  }
}
