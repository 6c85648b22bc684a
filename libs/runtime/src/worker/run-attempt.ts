import { randomBytes } from 'node:crypto';
import { AttemptSupersededError } from '../errors/run-errors.js';

/**
 * One execution attempt of a run on this worker (one BullMQ delivery of its job). Its `token`
 * goes into the run's record when the attempt starts (`start-run-5`) and with every write the
 * attempt makes to the run's keys, which each Lua script refuses once a newer attempt wrote its
 * own token (`store/lua/attempt-fence.lua.ts`). `signal` aborts once the attempt learns it was
 * superseded (a refused write, or its job lock lapsed): the execution then stops without
 * ending the run or touching the job, which belong to the newer attempt.
 */
export class RunAttempt {
  readonly runId: string;
  readonly token: string = nextAttemptToken();
  /** Set once superseded; no AbortController per attempt (one per run is CPU the worker pays). */
  #reason: AttemptSupersededError | undefined;
  #controller: AbortController | undefined;
  #listener: ((reason: AttemptSupersededError) => void) | undefined;

  constructor(runId: string) {
    this.runId = runId;
  }

  /** Aborted, with the {@link AttemptSupersededError}, once the attempt was superseded. */
  get signal(): AbortSignal {
    this.#controller ??= new AbortController();
    if (this.#reason && !this.#controller.signal.aborted) this.#controller.abort(this.#reason);
    return this.#controller.signal;
  }

  get superseded(): boolean {
    return this.#reason !== undefined;
  }

  /** Why the attempt was superseded (the first reason), once it was. */
  get reason(): AttemptSupersededError | undefined {
    return this.#reason;
  }

  /**
   * Calls `listener` once when the attempt is superseded (at once when it already was); one
   * listener at a time. Returns the function that removes it.
   */
  onSuperseded(listener: (reason: AttemptSupersededError) => void): () => void {
    if (this.#reason) {
      listener(this.#reason);
      return () => {};
    }
    this.#listener = listener;
    return () => {
      if (this.#listener === listener) this.#listener = undefined;
    };
  }

  /** Marks the attempt superseded (the first reason is kept). */
  supersede(reason: AttemptSupersededError): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.#controller?.abort(reason);
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.(reason);
  }

  /** Marks the attempt superseded when `error` says so (a write a Lua fence refused). */
  observe(error: unknown): void {
    if (AttemptSupersededError.is(error)) this.supersede(error);
  }
}

/** 128 random bits, drawn once per process: no other process makes the same tokens. */
const PROCESS_TOKEN = randomBytes(16).toString('base64url');
let attemptsMade = 0;

/**
 * A token no other attempt anywhere has: this process' random part and a count of its
 * attempts. Shorter than a UUID (every script call of the attempt sends it, its record keeps
 * it), and no random draw or formatting per attempt. Lua scripts only compare tokens.
 */
function nextAttemptToken(): string {
  attemptsMade += 1;
  return `${PROCESS_TOKEN}.${attemptsMade.toString(36)}`;
}
