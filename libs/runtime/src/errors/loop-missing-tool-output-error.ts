/** A tool-call-loop middleware returned no output for some of the model's tool calls. */
export class LoopMissingToolOutputError extends Error {
  override readonly name = 'LoopMissingToolOutputError';
  readonly missingCallIds: string[];

  constructor(missingCallIds: string[]) {
    super(
      `ToolCallLoopMiddleware returned incomplete ToolOutput[]: missing result for tool_call_id(s): ${missingCallIds.join(', ')}. ` +
        'Answer blocked calls with a synthetic output merged with the result of next(...).',
    );
    this.missingCallIds = missingCallIds;
  }

  static is(error: unknown): error is LoopMissingToolOutputError {
    return error instanceof Error && error.name === 'LoopMissingToolOutputError';
  }
}
