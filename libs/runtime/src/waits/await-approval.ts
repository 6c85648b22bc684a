/**
 * A tool call that needs a person's approval (`needsApproval`) waits for it before its handler
 * runs. The answer is journaled at `<tool position>/approval`, so the handler runs at most once
 * after an approval (its own step is journaled too) and never after a rejection, however often
 * the run is replayed. Parallel calls of one turn each wait on their own step: the run suspends
 * once all of them wait, and each answer wakes it to go on with the calls answered so far.
 */
import type { AgentContext } from '../context/agent-context.js';
import type { ApprovalAnswer } from '../context/run-services.js';
import { durableStep } from '../engine/durable-step.js';
import { hashJson } from '../engine/fingerprint.js';
import { suspendUntil } from '../engine/suspend-until.js';
import { DurableWaitUnavailableError } from '../errors/wait-errors.js';

/** The call waiting for approval. */
export interface ApprovalWait {
  toolName: string;
  callId: string;
  /** The validated arguments the model gave. */
  args: unknown;
  /** The call's tool position; the answer is journaled under it. */
  position: string;
}

/**
 * The person's answer to the call (journaled).
 * @throws DurableWaitUnavailableError in embedded mode (nobody can answer an in-process run)
 * @throws AbortError when the run is cancelled (or times out) while it waits
 */
export async function awaitApproval(context: AgentContext, wait: ApprovalWait): Promise<ApprovalAnswer> {
  const { value, replayed } = await durableStep<ApprovalAnswer>(context, {
    kind: 'approval',
    position: `${wait.position}/approval`,
    fingerprint: `approval:${wait.toolName}:${hashJson(wait.args)}`,
    execute: () => answerOf(context, wait),
  });
  if (!replayed) {
    context.run.emit({
      type: 'approval-resolved',
      callPath: context.callPath,
      toolCallId: wait.callId,
      tool: wait.toolName,
      approved: value.approved,
      ...(value.args !== undefined && { args: value.args }),
      ...(value.reason !== undefined && { reason: value.reason }),
    });
  }
  return value;
}

async function answerOf(context: AgentContext, wait: ApprovalWait): Promise<ApprovalAnswer> {
  const waits = context.run.services.waits;
  if (!waits) throw new DurableWaitUnavailableError('approval');
  const { callId, toolName: tool, args } = wait;
  for (;;) {
    const answer = await waits.approvalOf(callId);
    if (answer) return answer;
    // Stored (and announced) once: the run asks again on every replay until it is answered.
    if (await waits.requestApproval(callId, { callId, tool, args, callPath: context.callPath }))
      context.run.emit({
        type: 'approval-requested',
        callPath: context.callPath,
        toolCallId: callId,
        tool,
        args,
      });
    await suspendUntil(context, {
      waitingFor: { kind: 'approval', detail: `tool "${tool}" call ${callId}` },
      info: { callId, tool, args },
    });
  }
}
