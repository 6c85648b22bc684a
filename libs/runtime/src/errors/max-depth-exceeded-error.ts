import { errorGuard, FlotillaError } from '@flotilla/ir';

/** Agents called each other deeper than the nesting limit (likely unbounded recursion). */
export class MaxDepthExceededError extends FlotillaError {
  static override readonly errorName = 'MaxDepthExceededError';
  static override readonly is = errorGuard(this);
  readonly maxDepth: number;

  constructor(maxDepth: number, callPath: string) {
    super(
      `Stack overflow: max agent depth (${maxDepth}) exceeded at ${callPath}. Check for agents that call themselves without a stop condition.`,
    );
    this.maxDepth = maxDepth;
  }
}
