import { errorGuard, FlotillaError } from '@flotilla/ir';

/** The engine guard: a generation asked for more model turns than `maxTurnSteps`. */
export class TurnBudgetExceededError extends FlotillaError {
  static override readonly errorName = 'TurnBudgetExceededError';
  static override readonly is = errorGuard(this);
  readonly maxTurnSteps: number;
  readonly actualTurns: number;

  constructor(maxTurnSteps: number, actualTurns: number) {
    super(
      `Turn budget exceeded: this generation already made ${actualTurns} model turn(s), max allowed is ${maxTurnSteps}. ` +
        'Raise createAgent({ maxTurnSteps }) or split the work with reborn() or child agents.',
    );
    this.maxTurnSteps = maxTurnSteps;
    this.actualTurns = actualTurns;
  }
}
