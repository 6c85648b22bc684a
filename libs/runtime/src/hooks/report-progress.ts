import { requireAgentContext } from '../context/context-store.js';
import { durableStep } from '../engine/durable-step.js';
import { currentToolScope } from '../engine/progress-scope.js';
import { checkJsonBounds } from '../json/json-bounds.js';

/** The largest progress value `reportProgress` takes (UTF-8 bytes of its JSON). */
export const MAX_PROGRESS_BYTES = 16 * 1024;
/** The deepest progress value `reportProgress` takes. */
export const MAX_PROGRESS_DEPTH = 16;

/**
 * Reports how far long work has come, from a handler or a tool (like BullMQ's
 * `job.updateProgress` or a Temporal heartbeat's details): `value` (JSON, e.g. `{ done: 3,
 * of: 10 }`) becomes the run's latest progress on its record and in its tree
 * (`client.getRunTree`), and a `progress` event in its event stream.
 *
 * Journaled as a durable step (it holds no value, only "done"): a replay passes the calls it
 * already made without emitting them again. So, like every durable call, make the same
 * `reportProgress` calls in the same order on every run (a tool's calls are counted apart, per
 * tool call). A call that was under way when a worker crashed may be emitted again, as may the
 * calls of a tool that runs again after a crash.
 * @throws PayloadTooLargeError / ValueTooDeepError when `value` is larger than 16 KiB or nested deeper than 16
 * @throws NotJsonError when `value` has no JSON form
 * @throws ContextNotFoundError outside an agent run
 */
export async function reportProgress(value: unknown): Promise<void> {
  const context = requireAgentContext('reportProgress');
  checkJsonBounds(value, 'the progress value', {
    maxBytes: MAX_PROGRESS_BYTES,
    maxDepth: MAX_PROGRESS_DEPTH,
  });
  const copy = JSON.parse(JSON.stringify(value)) as unknown;
  const { run } = context;
  await durableStep(context, {
    kind: 'progress',
    position: context.nextPosition('progress', currentToolScope()),
    // Not the value: a progress value may differ on replay (a clock, a count) without meaning another call.
    fingerprint: 'progress',
    execute: async () => {
      await run.services.progress?.record(copy);
      run.emit({ type: 'progress', callPath: context.callPath, value: copy });
      return null;
    },
  });
}
