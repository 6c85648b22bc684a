/**
 * Pairs tool results with calls by function name when the provider gives calls no id (Gemini
 * without `functionCall.id`, OpenAI's legacy `function_call`). Generated ids are
 * `<prefix>-<name>-<n>`, `n` counting calls of that name across the whole conversation from 0,
 * so they are deterministic: the same input always yields the same ids. Results take the
 * oldest unanswered call of their name (first in, first out).
 */
export class CallIdQueue {
  private readonly counters = new Map<string, number>();
  private readonly pending = new Map<string, string[]>();

  constructor(private readonly prefix: string) {}

  /** Records a call; returns `id` when the provider gave one, else a generated id. */
  enqueue(name: string, id?: string): string {
    const callId = id || this.generate(name);
    const queue = this.pending.get(name) ?? [];
    queue.push(callId);
    this.pending.set(name, queue);
    return callId;
  }

  /**
   * The id a result of `name` answers: `id` itself when given (and it stops waiting), else the
   * oldest unanswered call of that name; `undefined` when there is none.
   */
  answer(name: string, id?: string): string | undefined {
    const queue = this.pending.get(name) ?? [];
    if (id) {
      const index = queue.indexOf(id);
      if (index !== -1) queue.splice(index, 1);
      return id;
    }
    return queue.shift();
  }

  private generate(name: string): string {
    const count = this.counters.get(name) ?? 0;
    this.counters.set(name, count + 1);
    return `${this.prefix}-${name}-${count}`;
  }
}
