import type { Job } from 'bullmq';
import { rootCallPath } from '../engine/execute-run.js';
import { MAX_CALL_PATH_LENGTH } from '../jobs/id-rule.js';

/** The callPath of the run's root invocation: the child's place in its tree, or `root/agent:<id>:0`. */
export function callPathOf(job: Job): string {
  const child = (job.data as { child?: { callPath?: unknown } } | undefined)?.child;
  const valid = typeof child?.callPath === 'string' && child.callPath.length <= MAX_CALL_PATH_LENGTH;
  return valid ? (child?.callPath as string) : rootCallPath(job.name.slice(0, 200));
}
