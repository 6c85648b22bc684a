/** Agents called each other deeper than the nesting limit (likely unbounded recursion). */
export class MaxDepthExceededError extends Error {
  override readonly name = 'MaxDepthExceededError';
  readonly maxDepth: number;

  constructor(maxDepth: number, callPath: string) {
    super(
      `Stack overflow: max agent depth (${maxDepth}) exceeded at ${callPath}. Check for agents that call themselves without a stop condition.`,
    );
    this.maxDepth = maxDepth;
  }

  static is(error: unknown): error is MaxDepthExceededError {
    return error instanceof Error && error.name === 'MaxDepthExceededError';
  }
}
