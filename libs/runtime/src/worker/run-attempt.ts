import { randomUUID } from 'node:crypto';
import { AttemptSupersededError } from '../errors/run-errors.js';

/**
 * One execution attempt of a run on this worker (one BullMQ delivery of its job). Its `token`
 * goes into the run's record when the attempt starts (`start-run-3`) and with every write the
 * attempt makes to the run's keys, which each Lua script refuses once a newer attempt wrote its
 * own token (`store/lua/attempt-fence.lua.ts`). `signal` aborts once the attempt learns it was
 * superseded (a refused write, or its job lock lapsed): the execution then stops without
 * ending the run or touching the job, which belong to the newer attempt.
 */
export class RunAttempt {
  readonly runId: string;
  readonly token: string = randomUUID();
  readonly #superseded = new AbortController();

  constructor(runId: string) {
    this.runId = runId;
  }

  /** Aborted, with the {@link AttemptSupersededError}, once the attempt was superseded. */
  get signal(): AbortSignal {
    return this.#superseded.signal;
  }

  get superseded(): boolean {
    return this.#superseded.signal.aborted;
  }

  /** Marks the attempt superseded (the first reason is kept). */
  supersede(reason: AttemptSupersededError): void {
    if (!this.superseded) this.#superseded.abort(reason);
  }

  /** Marks the attempt superseded when `error` says so (a write a Lua fence refused). */
  observe(error: unknown): void {
    if (AttemptSupersededError.is(error)) this.supersede(error);
  }
}
