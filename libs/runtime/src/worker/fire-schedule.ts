/**
 * A worker takes a schedule's firing job (`schedules/schedule-job.ts`) and turns it into a normal run:
 * record (with `scheduleId`), place on its conversation, job in the agent's queue. The run id
 * is `<scheduleId>-<due time>`, so a firing handled twice (a crash, a stalled job) makes one run.
 */
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { type EnqueueServices, enqueueRun } from '../client/enqueue-run.js';
import { isValidId, isValidRunId } from '../jobs/id-rule.js';
import { dueTimeOf, firingRunId, scheduleJobDataSchema } from '../schedules/schedule-job.js';

/** Fires one schedule job; a job whose data is not a firing's is logged and dropped (nothing to run). */
export async function fireSchedule(job: Job, services: EnqueueServices, logger: Logger): Promise<void> {
  const parsed = scheduleJobDataSchema.safeParse(job.data);
  const runId = parsed.success ? firingRunId(parsed.data.scheduleId, dueTimeOf(job)) : '';
  if (!parsed.success || !isValidId(parsed.data.agentId) || !isValidRunId(runId)) {
    logger.error({ jobId: String(job.id).slice(0, 240) }, 'schedule firing with invalid data; dropped');
    return;
  }
  const { scheduleId, agentId, input, conversationId, tenant } = parsed.data;
  const data = conversationId === undefined ? { input } : { input, conversationId };
  const enqueued = await enqueueRun(services, {
    ...{ runId, agentId, conversationId, tenant, scheduleId, data },
    submissionHash: `schedule:${runId}`,
    onConflict: 'enqueue',
  });
  logger.info({ scheduleId, runId, agentId, enqueued: enqueued.kind }, 'schedule fired');
}
