import type { RunEvent, StoredError } from '../api-types.ts';
import { type Child, h, jsonBlock } from '../dom.ts';
import { formatCount, formatDuration } from '../format.ts';

/**
 * One line of a run's timeline per event: model turns with their latency (from the matching
 * `model-turn-start`) and tokens, tool calls with arguments, tool results, child runs,
 * suspensions, reborns, replays and the end with its typed error. Everything is text.
 */
export class RunTimeline {
  readonly element = h('ol', { class: 'timeline', 'aria-label': 'Run events' });
  #startedAt: number | undefined;
  readonly #turnStarts = new Map<string, number>();
  #attempt = 0;

  add(event: RunEvent): void {
    this.#startedAt ??= event.at;
    const offset = `+${formatDuration(event.at - this.#startedAt)}`;
    this.element.append(
      h(
        'li',
        { class: `event event-${event.type}`, 'data-type': event.type },
        h('span', { class: 'offset' }, offset),
        ' ',
        h('span', { class: 'event-type' }, event.type),
        ' ',
        ...this.#details(event),
      ),
    );
  }

  #details(event: RunEvent): Child[] {
    const replayed = event.replayed === true ? h('span', { class: 'replayed' }, ' (replayed)') : '';
    switch (event.type) {
      case 'run-start':
        this.#attempt += 1;
        return [
          `agent ${text(event.agentId)}`,
          this.#attempt > 1 ? h('span', { class: 'retry' }, ` · retry: attempt ${this.#attempt}`) : '',
        ];
      case 'model-turn-start':
        this.#turnStarts.set(text(event.position), event.at);
        return [`${text(event.provider)}/${text(event.modelId)} · turn ${text(event.turnIndex)}`];
      case 'model-turn-end': {
        const started = this.#turnStarts.get(text(event.position));
        const usage = event.usage as { promptTokens?: number; completionTokens?: number } | undefined;
        return [
          `latency ${formatDuration(started === undefined ? undefined : event.at - started)} · tokens ${formatCount(usage?.promptTokens)} in, ${formatCount(usage?.completionTokens)} out · ${finishReason(event.finishReason)}`,
          replayed,
        ];
      }
      case 'tool-call':
        return [`${text(event.name)}`, jsonBlock(event.args, `Arguments of tool call ${text(event.name)}`)];
      case 'tool-result':
        return [
          `${text(event.name)} ${event.ok ? 'ok' : 'failed'}`,
          replayed,
          event.ok
            ? jsonBlock(event.result, `Result of tool ${text(event.name)}`)
            : errorLine(event.error as StoredError | undefined),
        ];
      case 'child-start':
        return [`child ${text(event.agentId)} ${text(event.childRunId ?? event.childCallPath)}`];
      case 'child-end':
        return [
          `child ${text(event.agentId)} ${event.ok ? 'ok' : 'failed'}`,
          replayed,
          event.ok ? '' : errorLine(event.error as StoredError | undefined),
        ];
      case 'run-suspended':
        return [
          `waiting for ${(event.pendingChildren as unknown[] | undefined)?.length ?? 0} child run(s), no slot held`,
        ];
      case 'reborn':
        return [`generation ${text(event.generation)}`];
      case 'generation-start':
      case 'generation-end':
        return [
          `generation ${text(event.generation)}${event.endReason ? ` · ${text(event.endReason)}` : ''}`,
        ];
      case 'progress':
        return [jsonBlock(event.value, 'Progress value')];
      case 'run-end':
        return [
          `${text(event.status)} · ${formatCount(event.modelCalls as number)} model calls`,
          event.error ? errorLine(event.error as StoredError) : '',
        ];
      default:
        return [jsonBlock(event, `Event ${event.type}`)];
    }
  }
}

/** A typed error with its cause chain: `Name: message` per level. */
export function errorLine(error: StoredError | undefined): HTMLElement {
  if (!error) return h('span');
  const causes: HTMLElement[] = [];
  for (let cause = error.cause, depth = 0; cause && depth < 5; cause = cause.cause, depth++)
    causes.push(
      h(
        'div',
        { class: 'cause' },
        'caused by ',
        h('strong', { class: 'error-name' }, text(cause.name)),
        `: ${text(cause.message)}`,
      ),
    );
  return h(
    'div',
    { class: 'run-error' },
    h('strong', { class: 'error-name' }, text(error.name)),
    `: ${text(error.message)}`,
    ...causes,
  );
}

function finishReason(value: unknown): string {
  if (typeof value === 'string') return value;
  const unified = (value as { unified?: unknown } | undefined)?.unified;
  return typeof unified === 'string' ? unified : 'finished';
}

function text(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}
