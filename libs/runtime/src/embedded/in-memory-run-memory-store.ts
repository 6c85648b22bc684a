import type { RunMemoryStore } from '../context/run-services.js';

/** A {@link RunMemoryStore} in process memory; values are kept as JSON text, as Redis would. */
export class InMemoryRunMemoryStore implements RunMemoryStore {
  private readonly byCallPath = new Map<string, Map<string, string>>();

  async load(callPath: string): Promise<Record<string, unknown>> {
    const values: Record<string, unknown> = {};
    for (const [key, text] of this.byCallPath.get(callPath) ?? []) values[key] = JSON.parse(text);
    return values;
  }

  async set(callPath: string, key: string, value: unknown): Promise<void> {
    let values = this.byCallPath.get(callPath);
    if (!values) {
      values = new Map();
      this.byCallPath.set(callPath, values);
    }
    values.set(key, JSON.stringify(value));
  }

  async clear(callPath: string): Promise<void> {
    this.byCallPath.delete(callPath);
  }

  /** The callPaths that still hold memory. */
  callPaths(): string[] {
    return [...this.byCallPath.keys()];
  }
}
