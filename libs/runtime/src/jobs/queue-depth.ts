/**
 * How many jobs wait in one agent's queue (one BullMQ queue per agent, `agent-queues.ts`): what
 * the dashboard's fleet view shows next to the workers that serve the agent. Queues are shared
 * by every tenant, like workers: the counts are the whole fleet's.
 */
export interface QueueDepth {
  agentId: string;
  /** Jobs ready for a worker (waiting and prioritized). */
  waiting: number;
  /** Jobs a worker holds (running, or a parent awaiting its children inside its slot). */
  active: number;
  /** Jobs due later (retries with backoff, a slot handed back). */
  delayed: number;
  /** Parent jobs suspended until their child runs end. */
  waitingChildren: number;
}

/** The BullMQ job states {@link QueueDepth} reads, as `Queue.getJobCounts` names them. */
export const QUEUE_DEPTH_STATES = [
  'waiting',
  'prioritized',
  'active',
  'delayed',
  'waiting-children',
] as const;

/** A {@link QueueDepth} from BullMQ's job counts (a missing state counts 0). */
export function queueDepthOf(agentId: string, counts: Record<string, number>): QueueDepth {
  const count = (state: (typeof QUEUE_DEPTH_STATES)[number]) => counts[state] ?? 0;
  return {
    agentId,
    waiting: count('waiting') + count('prioritized'),
    active: count('active'),
    delayed: count('delayed'),
    waitingChildren: count('waiting-children'),
  };
}
