import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * On replay, the handler asked for a different durable effect than the journal recorded at
 * the same position (another tool, another child agent, another memo key …). The handler must
 * make the same durable calls in the same order every time it runs.
 */
export class NonDeterminismError extends FlotillaError {
  static override readonly errorName = 'NonDeterminismError';
  static override readonly is = errorGuard(this);
  /** The journal position, e.g. `root/agent:writer:0/g0/tool:call_1:0`. */
  readonly position: string;
  /** Kind and fingerprint that were recorded. */
  readonly recorded: string;
  /** Kind and fingerprint asked for now. */
  readonly requested: string;

  constructor(position: string, recorded: string, requested: string) {
    super(
      `Non-deterministic replay at ${position}: the journal recorded ${recorded} but the handler now asked for ` +
        `${requested}. Agent handlers must make the same durable calls (model turns, tools, child agents, memo) ` +
        'in the same order on every run; move randomness, clocks and I/O into tools.',
    );
    this.position = position;
    this.recorded = recorded;
    this.requested = requested;
  }
}
