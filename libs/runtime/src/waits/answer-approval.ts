/**
 * A person's answer to a tool call awaiting approval (`client.approve`, `POST
 * /runs/:id/approvals/:callId`): checked, stored in the run's keys (the first answer wins), and
 * the run woken (`wake-run.ts`). The worker journals the answer when it takes it.
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { ApprovalAnswer } from '../context/run-services.js';
import { RunNotFoundError } from '../errors/run-errors.js';
import {
  ApprovalAlreadyAnsweredError,
  InvalidApprovalError,
  RunEndedError,
  UnknownApprovalError,
} from '../errors/wait-errors.js';
import { isValidId } from '../jobs/id-rule.js';
import { checkJsonBounds, type JsonLimits } from '../json/json-bounds.js';
import { runKeys } from '../keys.js';
import { answerApprovalScript } from './lua/answer-approval-3.lua.js';
import { DEFAULT_WAIT_KEY_SECONDS } from './redis-run-waits.js';
import { type RunWakeUp, wakeRun } from './wake-run.js';

/** The longest rejection (or approval) reason kept. */
export const MAX_APPROVAL_REASON_LENGTH = 4096;

/** An answer as a caller sends it (the HTTP body of `POST /runs/:id/approvals/:callId`). */
export const approvalAnswerInputSchema = z.strictObject({
  approved: z.boolean({ error: 'approved must be true or false' }),
  args: z.record(z.string(), z.unknown()).optional(),
  reason: z.string().max(MAX_APPROVAL_REASON_LENGTH).optional(),
});

/** What {@link answerApproval} needs. */
export interface ApprovalAnswerer extends RunWakeUp {
  redis: Redis;
  prefix: string;
  limits: JsonLimits;
}

/** Whether the answer was stored now or had been given before (the same answer again). */
export type ApprovalOutcome = 'answered' | 'already-answered';

/**
 * Answers the approval of tool call `callId` of the run `runId` (its stored id).
 * @throws InvalidApprovalError for an answer of the wrong shape or an invalid call id
 * @throws RunNotFoundError when there is no such run; RunEndedError when it already ended
 * @throws UnknownApprovalError when the run asked no approval of that call
 * @throws ApprovalAlreadyAnsweredError when it was answered differently before
 */
export async function answerApproval(
  answerer: ApprovalAnswerer,
  runId: string,
  callId: string,
  answer: ApprovalAnswer,
): Promise<ApprovalOutcome> {
  if (typeof callId !== 'string' || !isValidId(callId))
    throw new InvalidApprovalError('the tool call id breaks the id rule');
  const parsed = approvalAnswerInputSchema.safeParse(answer);
  if (!parsed.success)
    throw new InvalidApprovalError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; '),
    );
  if (parsed.data.args !== undefined) checkJsonBounds(parsed.data.args, 'the approved args', answerer.limits);
  const keys = runKeys(answerer.prefix, runId);
  const reply = await answerApprovalScript.run(
    answerer.redis,
    [keys.record, keys.approvalRequests, keys.approvals],
    [callId, JSON.stringify(parsed.data), DEFAULT_WAIT_KEY_SECONDS],
  );
  if (reply === -2) throw new RunNotFoundError(runId);
  if (Array.isArray(reply)) throw new RunEndedError(runId, String(reply[1]));
  if (reply === -4) throw new UnknownApprovalError(runId, callId);
  if (reply === -1) throw new ApprovalAlreadyAnsweredError(runId, callId);
  if (reply === 0) return 'already-answered';
  await wakeRun(answerer, runId, true);
  return 'answered';
}
