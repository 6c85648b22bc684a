/**
 * Durable tool executions. A tool handler's result (or error) is journaled at
 * `<generation>/tool:<toolCallId>:<n>` with a fingerprint of the tool name and arguments; a
 * replay returns it without calling the handler again.
 */
import type { AgentContext } from '../context/agent-context.js';
import { AbortError } from '../errors/run-errors.js';
import type { DurableResult } from './durable-step.js';
import { durableStep } from './durable-step.js';
import { hashJson } from './fingerprint.js';
import { runInToolScope } from './progress-scope.js';
import { capturedUsage, captureUsage, replayCapturedUsage, type UsageCapture } from './usage-budget.js';

/** One tool handler run to journal. */
export interface ToolExecution {
  position: string;
  toolName: string;
  args: unknown;
  /** Runs the handler; its value must be JSON. */
  execute: () => Promise<unknown>;
}

/**
 * Serves a tool execution from the journal or runs and records it (errors included, except
 * cancellation, which a resumed run must retry).
 */
export function executeToolDurably(
  context: AgentContext,
  execution: ToolExecution,
): Promise<DurableResult<unknown>> {
  // Usage the handler records (recordToolUsage, child agents) is journaled with the tool: a
  // replay serves the tool without running it, and rebuilds that usage from the entry.
  let capture: UsageCapture | undefined;
  const captured = () => (capture ? capturedUsage(capture) : undefined);
  return durableStep(context, {
    kind: 'tool',
    position: execution.position,
    fingerprint: `tool:${execution.toolName}:${hashJson(execution.args)}`,
    execute: () => {
      const run = captureUsage(context, () => runInToolScope(execution.position, execution.execute));
      capture = run.capture;
      return run.result;
    },
    usage: () => captured()?.usage,
    ownUsage: () => captured()?.ownUsage,
    onReplay: (recorded) => replayCapturedUsage(context, recorded),
    recordFailure: (error) => !AbortError.is(error),
    // Built only when tracing is on.
    span: () => ({
      name: `execute_tool ${execution.toolName}`,
      attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': execution.toolName },
    }),
  });
}
