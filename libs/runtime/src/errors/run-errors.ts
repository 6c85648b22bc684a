import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * The run (or one agent in it) was cancelled. Thrown at the next durable step after the signal
 * aborts, and by `equipResource` when the agent ended while the resource was being created.
 */
export class AbortError extends FlotillaError {
  static override readonly errorName = 'AbortError';
  static override readonly is = errorGuard(this);
  /** The abort reason, as text. */
  readonly reason: string;

  constructor(reason = 'Cancelled') {
    super(`Cancelled: ${reason}`);
    this.reason = reason;
  }
}

/** What a durable step is: its journal entry kind and its fingerprint. */
export interface StepIdentity {
  kind: string;
  fingerprint: string;
}

/**
 * On replay, the handler asked for a different durable effect than the journal recorded at
 * the same position (another tool, another child agent, another memo key, a model turn with
 * another model, tools or prompt …). The handler must make the same durable calls in the same
 * order every time it runs; a deliberate change goes behind `patched(changeId)`.
 */
export class NonDeterminismError extends FlotillaError {
  static override readonly errorName = 'NonDeterminismError';
  static override readonly is = errorGuard(this);
  /** The journal position, e.g. `root/agent:writer:0/g0/tool:call_1:0`. */
  readonly position: string;
  /** Kind and fingerprint that were recorded, as one text (`tool tool:add:…`). */
  readonly recorded: string;
  /** Kind and fingerprint asked for now, as one text. */
  readonly requested: string;
  readonly recordedKind: string;
  readonly recordedFingerprint: string;
  readonly requestedKind: string;
  /** The current code's fingerprint, in the format of the recorded one. */
  readonly requestedFingerprint: string;
  /** The parts of the fingerprint that differ (`model`, `tools`, `prompt` …), when it has parts. */
  readonly changed: string[];

  /**
   * @param recorded what the journal holds at `position`; `undefined` when it holds nothing there
   * although the run recorded calls past it (or ended): the handler asks for a call the recorded
   * run never made (found by `replayRun`)
   */
  constructor(
    position: string,
    recorded: StepIdentity | undefined,
    requested: StepIdentity,
    changed: string[] = [],
  ) {
    const what = changed.length > 0 ? ` (changed: ${changed.join(', ')})` : '';
    const found = recorded
      ? `the journal recorded ${recorded.kind} ${recorded.fingerprint}`
      : 'the journal recorded nothing (the recorded run went on past this point without this call)';
    super(
      `Non-deterministic replay at ${position}: ${found} but the handler now asked for ` +
        `${requested.kind} ${requested.fingerprint}${what}. Agent handlers must make the same ` +
        'durable calls (model turns with the same model, tools and prompt; tools, child agents, memo) in the same ' +
        'order on every run; move randomness, clocks and I/O into tools. If the change is deliberate, branch on ' +
        "patched('<change-id>') so runs recorded before it keep the old path, or let in-flight runs finish on the " +
        'build that started them; check a change against exported runs with replayRun.',
    );
    this.position = position;
    this.recorded = recorded ? `${recorded.kind} ${recorded.fingerprint}` : 'nothing';
    this.requested = `${requested.kind} ${requested.fingerprint}`;
    this.recordedKind = recorded?.kind ?? 'nothing';
    this.recordedFingerprint = recorded?.fingerprint ?? '';
    this.requestedKind = requested.kind;
    this.requestedFingerprint = requested.fingerprint;
    this.changed = changed;
  }
}

/**
 * Thrown when a run's journal holds an entry that does not parse as a journal entry. Names the
 * run and the position; the run cannot replay safely until the entry is repaired or removed.
 */
export class JournalCorruptedError extends FlotillaError {
  static override readonly errorName = 'JournalCorruptedError';
  static override readonly is = errorGuard(this);
  readonly runId: string;
  readonly position: string;

  constructor(runId: string, position: string, problem: string) {
    super(
      `The journal of run "${runId}" is corrupted at position "${position}": ${problem}. ` +
        'Inspect or remove that entry before replaying the run.',
    );
    this.runId = runId;
    this.position = position;
  }
}

/** A job named an agent this worker does not serve. The run fails; the worker keeps serving. */
export class UnknownAgentError extends FlotillaError {
  static override readonly errorName = 'UnknownAgentError';
  static override readonly is = errorGuard(this);
  readonly agentId: string;
  readonly knownAgentIds: string[];

  constructor(agentId: string, knownAgentIds: string[]) {
    super(
      `No agent "${agentId}" on this worker; it serves ${knownAgentIds.map((id) => `"${id}"`).join(', ') || 'no agents'}. ` +
        'Submit one of those ids, or add the agent to createWorker({ agents }).',
    );
    this.agentId = agentId;
    this.knownAgentIds = knownAgentIds;
  }
}

/**
 * The run's job stalled (its worker died or froze) more often than `maxStalledCount` allows,
 * so BullMQ failed it. The journal is kept: the cause is usually in the workers' logs.
 */
export class RunStalledError extends FlotillaError {
  static override readonly errorName = 'RunStalledError';
  static override readonly is = errorGuard(this);
  readonly runId: string;

  constructor(runId: string, reason: string) {
    super(
      `Run "${runId}" failed after its worker stopped responding too often (${reason}). Check the worker ` +
        'logs for crashes or a blocked event loop, or raise FLOTILLA_MAX_STALLED_COUNT.',
    );
    this.runId = runId;
  }
}

/** No run has this id: it was never submitted, or its record expired (see run retention). */
export class RunNotFoundError extends FlotillaError {
  static override readonly errorName = 'RunNotFoundError';
  static override readonly is = errorGuard(this);
  readonly runId: string;

  constructor(runId: string) {
    super(`No run "${runId}": it was never submitted, or it ended longer ago than the run retention.`);
    this.runId = runId;
  }
}

/**
 * The run passed its deadline (`createAgent({ timeoutMs })`, `submit(…, { timeoutMs })`, or the
 * remaining time inherited from its parent run) before it ended. It ends `failed`; whatever it
 * still executed was abandoned and its writes refused.
 */
export class RunTimeoutError extends FlotillaError {
  static override readonly errorName = 'RunTimeoutError';
  static override readonly is = errorGuard(this);
  readonly runId: string;
  /** The deadline, epoch ms. */
  readonly deadline: number;
  /** Milliseconds from the run's creation to when the timeout was noticed. */
  readonly elapsedMs: number;

  constructor(runId: string, deadline: number, elapsedMs: number) {
    super(
      `Run "${runId}" passed its deadline (${new Date(deadline).toISOString()}, ${elapsedMs} ms after it was ` +
        'submitted) and was stopped. Raise `timeoutMs` (createAgent or submit), or make the agent finish sooner.',
    );
    this.runId = runId;
    this.deadline = deadline;
    this.elapsedMs = elapsedMs;
  }
}

/**
 * A write came from an execution its worker already abandoned (the run was cancelled or timed
 * out while the code ignored its abort signal). The write is refused; the run already ended.
 */
export class ExecutionAbandonedError extends FlotillaError {
  static override readonly errorName = 'ExecutionAbandonedError';
  static override readonly is = errorGuard(this);
  readonly runId: string;

  constructor(runId: string, what: string) {
    super(
      `Refused ${what} from an abandoned execution of run "${runId}": the run already ended (cancelled or ` +
        'timed out). Honour the abort signal (`signal` in tools) so the work stops when the run does.',
    );
    this.runId = runId;
  }
}

/**
 * A submission reused a run id that an earlier, different submission (another agent, input,
 * conversation, scope or option) already started: the first run stays as it was ("already
 * started", like Temporal). Resubmitting exactly the same submission is idempotent; for other
 * work, use another run id. The scheduler API answers 409.
 */
export class RunIdConflictError extends FlotillaError {
  static override readonly errorName = 'RunIdConflictError';
  static override readonly is = errorGuard(this);
  readonly runId: string;

  constructor(runId: string) {
    super(
      `Run "${runId}" was already started by a different submission (agent, input, conversation, scope or ` +
        'options differ). Resubmit exactly the same submission to get that run, or use another run id.',
    );
    this.runId = runId;
  }
}

/**
 * A write came from an execution attempt of a run that a newer attempt took over (its worker
 * lost the job's lock — it froze, or Redis paused — and another worker started the run again).
 * The write is refused inside its Lua script; the stale attempt stops without ending the run or
 * touching its job, which the newer attempt now owns. Not a failure of the run.
 */
export class AttemptSupersededError extends FlotillaError {
  static override readonly errorName = 'AttemptSupersededError';
  static override readonly is = errorGuard(this);
  readonly runId: string;

  constructor(runId: string, what: string) {
    super(
      `Refused ${what} from a superseded attempt of run "${runId}": a newer attempt on another worker owns ` +
        'the run now (this worker lost the job lock: it froze or Redis paused longer than lockDurationMs). ' +
        'Nothing to do: the newer attempt finishes the run; raise FLOTILLA_LOCK_DURATION_MS if it happens often.',
    );
    this.runId = runId;
  }
}

/**
 * The run at a child run's id was not created by the calling run (another parent, another
 * tree, or no parent at all: a planted run). The caller refuses to adopt its result, and fails.
 */
export class ForeignChildRunError extends FlotillaError {
  static override readonly errorName = 'ForeignChildRunError';
  static override readonly is = errorGuard(this);
  readonly childRunId: string;
  /** The run that called the child (and expected to own it). */
  readonly parentRunId: string;

  constructor(childRunId: string, parentRunId: string, found: { parentRunId?: string; rootRunId?: string }) {
    super(
      `Run "${parentRunId}" refused to adopt run "${childRunId}": that run was not created by it (its record names ` +
        `parent ${JSON.stringify(found.parentRunId ?? null)} and root ${JSON.stringify(found.rootRunId ?? null)}). ` +
        'Someone wrote a run at this child id; delete it and resubmit the parent run.',
    );
    this.childRunId = childRunId;
    this.parentRunId = parentRunId;
  }
}
