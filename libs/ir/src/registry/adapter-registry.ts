import type { ITargetAdapter } from '../types/target-adapter.js';
import { registerBuiltinAdapters } from './builtin-adapters.js';
import type { BuiltinPayloads } from './builtin-payloads.js';
import { UnknownTargetError } from './unknown-target-error.js';

interface Registration {
  adapter: ITargetAdapter;
  sourceId: string | undefined;
}

/**
 * Maps target names to {@link ITargetAdapter}s. Use the process-wide {@link adapterRegistry},
 * which holds the built-ins (`openai`, `anthropic`, `gemini`, `openai-responses`) under the
 * source id `'builtin'`; a fresh `AdapterRegistry` starts empty.
 */
export class AdapterRegistry {
  readonly #entries = new Map<string, Registration>();

  /**
   * Registers `adapter` under `name`, replacing any adapter of that name (a built-in too: its
   * strict payload type stays, so a replacement must return the same shape at runtime).
   * A replaced name keeps its place in {@link AdapterRegistry.list}.
   * @param sourceId tags the entry so {@link AdapterRegistry.unregisterBySource} can remove a
   *   whole plugin's registrations at once.
   */
  register(name: string, adapter: ITargetAdapter, sourceId?: string): this {
    this.#entries.set(name, { adapter, sourceId });
    return this;
  }

  /** Removes `name`; does nothing when it is not registered. Returns whether it was. */
  unregister(name: string): boolean {
    return this.#entries.delete(name);
  }

  /** Removes every entry registered with `sourceId`; untagged entries are never removed. Returns their names. */
  unregisterBySource(sourceId: string): string[] {
    const removed: string[] = [];
    for (const [name, entry] of this.#entries) {
      if (entry.sourceId === sourceId) removed.push(name);
    }
    for (const name of removed) this.#entries.delete(name);
    return removed;
  }

  /**
   * The adapter registered under `name`.
   * @throws {UnknownTargetError} when nothing is registered under `name`; its message lists
   *   the registered names.
   */
  get<Name extends keyof BuiltinPayloads>(name: Name): ITargetAdapter<BuiltinPayloads[Name]>;
  get(name: string): ITargetAdapter;
  get(name: string): ITargetAdapter {
    const entry = this.#entries.get(name);
    if (!entry) throw new UnknownTargetError(name, this.list());
    return entry.adapter;
  }

  /** Whether an adapter is registered under `name`. */
  has(name: string): boolean {
    return this.#entries.has(name);
  }

  /** Registered names, in registration order. */
  list(): string[] {
    return [...this.#entries.keys()];
  }
}

/**
 * The process-wide registry `compile({ target })` resolves names in. The built-in targets are
 * registered on import under the source id `'builtin'`.
 */
export const adapterRegistry: AdapterRegistry = registerBuiltinAdapters(new AdapterRegistry());

/**
 * The adapter registered under `name` in {@link adapterRegistry}, to compile without a chef.
 * @throws {UnknownTargetError} when nothing is registered under `name`.
 */
export function getAdapter<Name extends keyof BuiltinPayloads>(
  name: Name,
): ITargetAdapter<BuiltinPayloads[Name]>;
export function getAdapter(name: string): ITargetAdapter;
export function getAdapter(name: string): ITargetAdapter {
  return adapterRegistry.get(name);
}
