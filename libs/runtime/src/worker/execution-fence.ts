/**
 * The fence of one execution of a run on a worker. When the worker stops waiting for an
 * execution (the run was cancelled or timed out and its code ignored the abort signal), it
 * abandons it: from then on every write the execution's services make (journal records, memory,
 * conversation appends, child runs, events) is refused, so the work that goes on in the
 * background cannot change a run that already ended. Across workers, the execution's
 * {@link RunAttempt} token is checked inside every Lua script that writes the run's keys; the
 * first write refused there (`AttemptSupersededError`) marks the attempt superseded, and every
 * later write is refused here without a round trip.
 */
import type { RunServices } from '../context/run-services.js';
import { ExecutionAbandonedError } from '../errors/run-errors.js';
import { SETTLED } from '../shared/settled.js';
import type { RunAttempt } from './run-attempt.js';

export class ExecutionFence {
  readonly runId: string;
  readonly #attempt: RunAttempt | undefined;
  #abandoned = false;

  constructor(runId: string, attempt?: RunAttempt) {
    this.runId = runId;
    this.#attempt = attempt;
  }

  /** Whether the execution writes nothing more: abandoned, or its attempt superseded. */
  get abandoned(): boolean {
    return this.#abandoned || this.#attempt?.superseded === true;
  }

  /** Refuses every later write of the execution. */
  abandon(): void {
    this.#abandoned = true;
  }

  /**
   * @throws AttemptSupersededError once the attempt was superseded
   * @throws ExecutionAbandonedError once the execution was abandoned
   */
  check(what: string): void {
    if (this.#attempt?.superseded) throw this.#attempt.reason;
    if (this.#abandoned) throw new ExecutionAbandonedError(this.runId, what);
  }

  /** Runs one write of the execution, unless refused; a refusal by a Lua fence supersedes the attempt. */
  write<T>(what: string, call: () => Promise<T>): Promise<T> {
    // Not an async function: one promise per write instead of three (every promise pays the
    // async-context hooks), the same rejections.
    try {
      this.check(what);
      const written = call();
      const attempt = this.#attempt;
      // The shared settled promise never rejects: nothing to observe (a deferred record, a settle).
      if (!attempt || written === SETTLED) return written;
      return written.then(undefined, (error: unknown) => {
        attempt.observe(error);
        throw error;
      });
    } catch (error) {
      this.#attempt?.observe(error);
      return Promise.reject(error);
    }
  }
}

/** The services an execution writes through (see {@link fenceWrites}). */
export type RunWrites = Pick<
  RunServices,
  'journal' | 'memory' | 'conversations' | 'events' | 'progress' | 'waits' | 'children'
>;

/**
 * `writes` passed through `fence` (events are dropped once abandoned, not thrown), for the
 * execution's services literal (the worker's `#services`). A progress report, a signal take and
 * an approval request first wait for the journal's deferred records (`RunJournal.settle`): they
 * are effects a replay must not see without the model turns before them (memory:
 * `RedisRunMemoryStore`'s `beforeWrite`; durable steps settle themselves).
 */
export function fenceWrites(writes: RunWrites, fence: ExecutionFence): RunWrites {
  const { journal, memory, conversations, events, children, progress, waits } = writes;
  const settle = () => journal.settle?.() ?? SETTLED;
  return {
    journal: {
      load: () => journal.load(),
      record: (position, entry, options) =>
        fence.write('a journal record', () => journal.record(position, entry, options)),
      // Checked again once settled: an attempt superseded meanwhile (its lease lapsed while Redis
      // did not answer) must not go on to the effect that waited. Nothing to wait for (the usual
      // case): checked now, no promise made.
      settle: () => {
        const settled = fence.write('a journal record', settle);
        if (settled !== SETTLED) return settled.then(() => fence.check('a journal record'));
        try {
          fence.check('a journal record');
          return SETTLED;
        } catch (error) {
          return Promise.reject(error);
        }
      },
    },
    memory: {
      load: (callPath) => memory.load(callPath),
      ...(memory.loaded && { loaded: (callPath: string) => memory.loaded?.(callPath) }),
      set: (callPath, key, value) => fence.write('a memory write', () => memory.set(callPath, key, value)),
      clear: (callPath) => fence.write('a memory write', () => memory.clear(callPath)),
    },
    conversations: {
      load: (conversationId, options) => conversations.load(conversationId, options),
      append: (conversationId, change) =>
        fence.write('a conversation append', () => conversations.append(conversationId, change)),
    },
    events: {
      emit: (event) => {
        if (!fence.abandoned) events.emit(event);
      },
      flush: () => events.flush(),
    },
    progress: progress && {
      record: (value) => fence.write('a progress report', () => settle().then(() => progress.record(value))),
    },
    waits: waits && {
      takeSignal: (name, position, fingerprint) =>
        fence.write('a signal take', () =>
          settle().then(() => waits.takeSignal(name, position, fingerprint)),
        ),
      expectSignal: (name, schema) => fence.write('a signal schema', () => waits.expectSignal(name, schema)),
      approvalOf: (callId) => waits.approvalOf(callId),
      requestApproval: (callId, request) =>
        fence.write('an approval request', () => settle().then(() => waits.requestApproval(callId, request))),
    },
    children: children && {
      maxChildrenPerRun: children.maxChildrenPerRun,
      resolve: (call) => fence.write('a child run', () => children.resolve(call)),
    },
  };
}
