import type { RunEvent } from '@flotilla/runtime/client';

/**
 * One readable line for a run event, indented by how deep its agent is in the run's call
 * tree; `undefined` for events the demo does not show (generation bookkeeping).
 */
export function describeEvent(event: RunEvent): string | undefined {
  const indent = '  '.repeat(depthOf(event.callPath));
  const text = eventText(event);
  return text === undefined ? undefined : `${indent}${text}`;
}

function eventText(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'run-start':
      return `run ${event.runId} started: agent "${event.agentId}", input ${json(event.input)}`;
    case 'model-turn-end':
      return (
        `turn ${event.turnIndex + 1}: the model answered (${event.finishReason.unified}), ` +
        `${event.usage.promptTokens} prompt + ${event.usage.completionTokens} completion tokens` +
        (event.replayed ? ', replayed from the journal' : '')
      );
    case 'tool-call':
      return `tool call: ${event.name}(${json(event.args)})`;
    case 'tool-result':
      return event.ok ? `tool result: ${summarise(event.result)}` : `tool error: ${event.error?.message}`;
    case 'child-start':
      return `child agent "${event.agentId}" called`;
    case 'child-end':
      return `child agent "${event.agentId}" ${event.ok ? 'answered' : `failed: ${event.error?.message}`}`;
    case 'reborn':
      return `agent "${event.agentId}" reborn (generation ${event.generation})`;
    case 'run-end':
      return `run ended: ${event.status} after ${event.modelCalls} model calls`;
    default:
      return undefined;
  }
}

/** `root/agent:research:0` is depth 0; each `/agent:` segment after it one more. */
function depthOf(callPath: string): number {
  return Math.max(0, (callPath.match(/\/agent:/g) ?? []).length - 1);
}

function summarise(value: unknown): string {
  if (Array.isArray(value)) {
    const ids = value.map((item) => (item as { id?: unknown })?.id).filter((id) => typeof id === 'string');
    if (ids.length === value.length) return `${value.length} notes (${ids.join(', ')})`;
  }
  return json(value);
}

function json(value: unknown): string {
  const text = JSON.stringify(value) ?? 'undefined';
  return text.length > 100 ? `${text.slice(0, 99)}…` : text;
}
