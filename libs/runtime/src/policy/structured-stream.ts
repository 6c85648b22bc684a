/**
 * `structured-data` stream events for one model turn: the answer's JSON re-parsed after every
 * text delta (`policy/partial-json.ts`) and reported when it changed, then the final state.
 */
import type { Message } from '@flotilla/ir';
import type { AgentStreamEvent } from '../context/agent-stream-event.js';
import { keysFitSchema, parsePartialJson } from './partial-json.js';

type StructuredEvent = Extract<AgentStreamEvent, { type: 'structured-data' }>;
type Emit = (event: Omit<StructuredEvent, 'turnIndex'>) => void;

export class StructuredStream {
  #text = '';
  #last: string | undefined;
  readonly #schema: Record<string, unknown> | undefined;
  readonly #emit: Emit;

  constructor(schema: Record<string, unknown> | undefined, emit: Emit) {
    this.#schema = schema;
    this.#emit = emit;
  }

  /** Adds streamed answer text; reports the parsed value when it changed. */
  text(chunk: string): void {
    this.#text += chunk;
    const parsed = parsePartialJson(this.#text);
    if (!parsed) return;
    const event = this.#event('streaming', parsed.value);
    if (!event) return;
    const key = JSON.stringify(event.data);
    if (key === this.#last) return;
    this.#last = key;
    this.#emit(event);
  }

  /** Reports the final value of the answer (also for a replayed turn, which streamed nothing). */
  finish(message: Message): void {
    const text = message.content;
    if (text.trim() === '') return;
    const parsed = parsePartialJson(text);
    if (parsed?.complete) {
      const event = this.#event('complete', parsed.value);
      if (event) this.#emit(event);
    } else if (this.#schema)
      this.#emit({ type: 'structured-data', status: 'error', data: {}, isValid: false });
  }

  #event(status: 'streaming' | 'complete', value: unknown): Omit<StructuredEvent, 'turnIndex'> | undefined {
    if (!this.#schema) {
      // Without a schema only JSON objects are structured data (prose, numbers … are not).
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
      return { type: 'structured-data', status, data: value, isValid: true };
    }
    const isValid = keysFitSchema(value, this.#schema);
    return { type: 'structured-data', status, data: isValid ? value : {}, isValid };
  }
}
