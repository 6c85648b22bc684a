/** Errors of `patched()` / `deprecatePatch()` (`hooks/patched.ts`). */
import { errorGuard, FlotillaError } from '@flotilla/ir';

/** A change id given to `patched` or `deprecatePatch` breaks the id rule. */
export class InvalidPatchIdError extends FlotillaError {
  static override readonly errorName = 'InvalidPatchIdError';
  static override readonly is = errorGuard(this);
  /** The call that got it: `patched` or `deprecatePatch`. */
  readonly apiName: string;
  /** The id as given, cut to 80 characters (it may be anything). */
  readonly changeId: string;

  constructor(apiName: string, changeId: unknown, rule: string) {
    const shown = String(changeId).slice(0, 80);
    super(
      `${apiName}(${JSON.stringify(shown)}): the change id is not valid (${rule}). Name each change with a ` +
        'short, stable literal such as "send-summary-email", and keep the same id in every version of the code.',
    );
    this.apiName = apiName;
    this.changeId = shown;
  }
}

/**
 * `patched` or `deprecatePatch` was called inside a tool handler. A tool runs as one durable
 * step whose code is never replayed (its recorded outcome is), so there is nothing to patch:
 * change a tool's code freely, or call `patched` in the agent handler around the tool call.
 */
export class PatchInsideToolError extends FlotillaError {
  static override readonly errorName = 'PatchInsideToolError';
  static override readonly is = errorGuard(this);
  readonly apiName: string;
  /** The tool's position segment, e.g. `tool:call_1:0`. */
  readonly toolPosition: string;

  constructor(apiName: string, toolPosition: string) {
    super(
      `${apiName} cannot be called inside a tool (${toolPosition}): a tool's code is never replayed, so a ` +
        'change inside it needs no patch. Change the tool directly, or branch on patched() in the agent handler.',
    );
    this.apiName = apiName;
    this.toolPosition = toolPosition;
  }
}

/**
 * The most steps one suspension may wait at: their positions are stored with it (a run's
 * pending steps, `runs/pending-steps.ts`); a run suspending with more fails with
 * {@link TooManyPendingStepsError}.
 */
export const MAX_PENDING_STEPS = 100_000;

/**
 * A run suspended while more durable steps were in flight than its suspension can store (the
 * positions `patched()` must count as reached on the next execution). The run fails rather
 * than resume with a frontier it cannot see.
 */
export class TooManyPendingStepsError extends FlotillaError {
  static override readonly errorName = 'TooManyPendingStepsError';
  static override readonly is = errorGuard(this);
  readonly runId: string;
  readonly pendingSteps: number;
  readonly limit: number;

  constructor(runId: string, pendingSteps: number, limit: number) {
    super(
      `Run "${runId}" suspended with ${pendingSteps} durable steps in flight; at most ${limit} can be stored ` +
        'with a suspension. Fan out in batches (await a group of child calls or waits before starting the next).',
    );
    this.runId = runId;
    this.pendingSteps = pendingSteps;
    this.limit = limit;
  }
}
