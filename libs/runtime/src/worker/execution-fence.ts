/**
 * The fence of one execution of a run on a worker. When the worker stops waiting for an
 * execution (the run was cancelled or timed out and its code ignored the abort signal), it
 * abandons it: from then on every write the execution's services make (journal records, memory,
 * conversation appends, child runs, events) is refused, so the work that goes on in the
 * background cannot change a run that already ended. Fenced attempts across workers (an attempt
 * token checked inside the Lua scripts) build on this.
 */
import type { RunServices } from '../context/run-services.js';
import { ExecutionAbandonedError } from '../errors/run-errors.js';

export class ExecutionFence {
  readonly runId: string;
  #abandoned = false;

  constructor(runId: string) {
    this.runId = runId;
  }

  get abandoned(): boolean {
    return this.#abandoned;
  }

  /** Refuses every later write of the execution. */
  abandon(): void {
    this.#abandoned = true;
  }

  /** @throws ExecutionAbandonedError once the execution was abandoned */
  check(what: string): void {
    if (this.#abandoned) throw new ExecutionAbandonedError(this.runId, what);
  }
}

/** `services` whose writes pass through `fence` (events are dropped once abandoned, not thrown). */
export function fenceServices(services: RunServices, fence: ExecutionFence): RunServices {
  const { journal, memory, conversations, events, children } = services;
  const fenced: RunServices = {
    ...services,
    journal: {
      load: () => journal.load(),
      record: async (position, entry) => {
        fence.check('a journal record');
        await journal.record(position, entry);
      },
    },
    memory: {
      load: (callPath) => memory.load(callPath),
      set: async (callPath, key, value) => {
        fence.check('a memory write');
        await memory.set(callPath, key, value);
      },
      clear: async (callPath) => {
        fence.check('a memory write');
        await memory.clear(callPath);
      },
    },
    conversations: {
      load: (conversationId, options) => conversations.load(conversationId, options),
      append: async (conversationId, change) => {
        fence.check('a conversation append');
        return conversations.append(conversationId, change);
      },
    },
    events: {
      emit: (event) => {
        if (!fence.abandoned) events.emit(event);
      },
      flush: () => events.flush(),
    },
  };
  if (children) {
    fenced.children = {
      maxChildrenPerRun: children.maxChildrenPerRun,
      resolve: async (call) => {
        fence.check('a child run');
        return children.resolve(call);
      },
    };
  }
  return fenced;
}
