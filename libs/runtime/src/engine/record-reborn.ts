/**
 * Reborns are durable: the props of the next generation are journaled at
 * `<callPath>/g<n>/reborn`, so a replay can start at the last generation the run reached
 * instead of re-running every earlier one.
 */
import type { AgentContext } from '../context/agent-context.js';
import type { RunState } from '../context/run-state.js';
import { durableStep } from './durable-step.js';

/** Where a replayed invocation starts: the generation and its props. */
export interface GenerationStart {
  generation: number;
  props: unknown;
}

/** Records that generation `context.generation` ended with `reborn(props)`. */
export async function recordReborn(context: AgentContext, props: unknown): Promise<void> {
  await durableStep(context, {
    kind: 'reborn',
    position: rebornPosition(context.callPath, context.generation),
    fingerprint: `reborn:${context.agentId}`,
    execute: async () => ({ props }),
  });
}

/**
 * The generation an invocation at `callPath` should start with: one past the last recorded
 * reborn (with the props it recorded), else generation 0 with `props`.
 */
export function resumeGeneration(run: RunState, callPath: string, props: unknown): GenerationStart {
  let start: GenerationStart = { generation: 0, props };
  for (let generation = 0; ; generation++) {
    const entry = run.journal.get(rebornPosition(callPath, generation));
    if (!entry?.outcome.ok) return start;
    start = { generation: generation + 1, props: (entry.outcome.value as { props: unknown }).props };
  }
}

function rebornPosition(callPath: string, generation: number): string {
  return `${callPath}/g${generation}/reborn`;
}
