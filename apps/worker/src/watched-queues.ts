import { agentQueueName } from '@flotilla/runtime/internals';

/** A BullMQ queue whose jobs this worker's queue gauges report. */
export interface WatchedQueue {
  /** The BullMQ queue name. */
  name: string;
  /** The `agent` label: the agent whose runs the queue holds, `all` for a queue every agent shares. */
  agent: string;
}

/**
 * THE place that says which queues a worker watches for `flotilla_queue_jobs` and
 * `flotilla_runs_suspended`: each agent has its own queue (routing by agent), so one entry per
 * agent the worker serves, labelled by its id.
 */
export function watchedQueues(queueName: string, servedAgents: readonly string[]): WatchedQueue[] {
  return servedAgents.map((agent) => ({ name: agentQueueName(queueName, agent), agent }));
}
