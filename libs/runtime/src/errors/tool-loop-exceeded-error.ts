import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * The preset tool loop did not converge: the model still asked for tools on the last allowed
 * turn (those tools are not executed).
 */
export class ToolLoopExceededError extends FlotillaError {
  static override readonly errorName = 'ToolLoopExceededError';
  static override readonly is = errorGuard(this);
  readonly maxTurnSteps: number;
  readonly actualTurns: number;

  constructor(maxTurnSteps: number, actualTurns: number) {
    super(
      `Prompt loop exceeded: ${actualTurns} model turn(s), max allowed is ${maxTurnSteps}, and the model still ` +
        'asked for tools. Raise createAgent({ maxTurnSteps }) or tell the model when to stop calling tools.',
    );
    this.maxTurnSteps = maxTurnSteps;
    this.actualTurns = actualTurns;
  }
}
