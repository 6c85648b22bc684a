/** A BullMQ queue whose jobs this worker's queue gauges report. */
export interface WatchedQueue {
  /** The BullMQ queue name. */
  name: string;
  /** The `agent` label: the agent whose runs the queue holds, `all` for a queue every agent shares. */
  agent: string;
}

/**
 * THE place that says which queues a worker watches for `flotilla_queue_jobs` and
 * `flotilla_runs_suspended`. Today every agent's runs share the one configured queue; with a
 * queue per agent this returns one entry per agent the worker serves (labelled by its id).
 */
export function watchedQueues(queueName: string, _servedAgents: readonly string[]): WatchedQueue[] {
  return [{ name: queueName, agent: 'all' }];
}
