import { IRValidationError } from '../errors.js';
import { adapterRegistry } from '../registry/adapter-registry.js';
import type { BuiltinPayloads } from '../registry/builtin-payloads.js';
import type { Message } from '../types/message.js';
import type {
  CompileContext,
  CompileMeta,
  CompileWarning,
  ITargetAdapter,
  TargetPayload,
  TargetProvider,
} from '../types/target-adapter.js';
import type { ToolDefinition } from '../types/tool-definition.js';
import {
  CHEF_SNAPSHOT_SCHEMA_VERSION,
  type ChefSnapshot,
  cloneAsJson,
  parseChefSnapshot,
} from './chef-snapshot.js';

/** Where {@link ContextChef.compile} sends messages: a built-in or registered name, or an adapter. */
export type ChefTarget = TargetProvider | ITargetAdapter;

/**
 * The payload type a target compiles to: the strict built-in payload for a built-in name, the
 * adapter's own payload for an instance, the loose {@link TargetPayload} for any other name.
 * `meta` (with the collected warnings) is always present on what `compile` returns.
 */
export type PayloadFor<Target> = (Target extends keyof BuiltinPayloads
  ? BuiltinPayloads[Target]
  : Target extends ITargetAdapter<infer Payload>
    ? Payload
    : TargetPayload) & { meta: CompileMeta };

/** Options of {@link ContextChef}'s constructor. */
export interface ChefConfig<Default extends ChefTarget = ChefTarget> {
  /**
   * The target `compile()` uses when the call names none.
   * @default 'openai'
   */
  defaultTarget?: Default;
}

/** Options of {@link ContextChef.compile}. */
export interface CompileOptions<Target extends ChefTarget | undefined = ChefTarget | undefined> {
  /** Overrides the chef's `defaultTarget` for this call. */
  target?: Target;
  /** Tool definitions; the target converts them to its provider's shape. Empty means none. */
  tools?: ToolDefinition[];
  /** Rejects the compile with the signal's reason when it is already aborted. */
  signal?: AbortSignal;
}

/**
 * Holds a conversation (system prompt + history) and compiles it for any target.
 *
 * The history is trusted as given: `setHistory` does not sanitise (input adapters already did,
 * or call `ensureValidHistory` yourself). `compile` never changes the stored state.
 *
 * @example
 * const chef = new ContextChef({ defaultTarget: 'anthropic' });
 * chef.setSystemPrompt('You are terse.').setHistory([{ role: 'user', content: 'hi' }]);
 * const payload = await chef.compile(); // AnthropicPayload, payload.meta.warnings lists degradations
 */
export class ContextChef<Default extends ChefTarget = 'openai'> {
  private system: Message[] = [];
  private history: Message[] = [];
  private defaultTarget: ChefTarget | undefined;

  constructor(config: ChefConfig<Default> = {}) {
    this.defaultTarget = config.defaultTarget;
  }

  /**
   * Builds a chef from a stored {@link ChefSnapshot}. Its static type is loose (any target),
   * because the snapshot's default target is only known at run time.
   * @throws see {@link ContextChef.restore}.
   */
  static fromSnapshot(snapshot: unknown): ContextChef<ChefTarget> {
    return new ContextChef<ChefTarget>().restore(snapshot);
  }

  /** Sets the system prompt; a string becomes one system message (`''` means none). */
  setSystemPrompt(system: readonly Message[] | string): this {
    this.system = typeof system === 'string' ? systemFromText(system) : [...system];
    return this;
  }

  /** The system prompt messages (a copy of the list; the messages are shared). */
  getSystemPrompt(): Message[] {
    return [...this.system];
  }

  /** Replaces the history as given: not sanitised, not validated. */
  setHistory(history: readonly Message[]): this {
    this.history = [...history];
    return this;
  }

  /** The history (a copy of the list; the messages are shared). */
  getHistory(): Message[] {
    return [...this.history];
  }

  /**
   * Compiles `[...system, ...history]` for a target, resolved in this order: `options.target`,
   * the constructor's `defaultTarget`, `'openai'`. A name is looked up in `adapterRegistry`
   * (built-ins are registered there); an adapter instance is used directly. Degradations the
   * target reports are returned in `payload.meta.warnings` (and not logged).
   * @throws (rejects) with the registry's error for an unregistered name, with `signal.reason`
   * when `signal` is aborted, or with whatever the adapter throws.
   */
  compile(options?: CompileOptions<undefined>): Promise<PayloadFor<Default>>;
  compile<const Target extends ChefTarget>(options: CompileOptions<Target>): Promise<PayloadFor<Target>>;
  async compile(options: CompileOptions = {}): Promise<TargetPayload & { meta: CompileMeta }> {
    options.signal?.throwIfAborted();
    const adapter = resolveAdapter(options.target ?? this.defaultTarget ?? 'openai');
    const collected: CompileWarning[] = [];
    const context: CompileContext = { onWarning: (warning) => collected.push(warning) };
    if (options.tools && options.tools.length > 0) context.tools = options.tools;
    const payload = adapter.compile([...this.system, ...this.history], context);
    return { ...payload, meta: withWarnings(payload.meta, collected) };
  }

  /**
   * The chef's state as plain JSON ({@link ChefSnapshot}): system prompt, history and the
   * default target when it is a name. Later changes to the chef or to the messages do not
   * reach the snapshot, and the other way round.
   * @throws {IRValidationError} when a message holds a value JSON cannot store (a cycle, a BigInt).
   */
  snapshot(): ChefSnapshot {
    const snapshot: ChefSnapshot = {
      schemaVersion: CHEF_SNAPSHOT_SCHEMA_VERSION,
      system: cloneAsJson(this.system, 'system'),
      history: cloneAsJson(this.history, 'history'),
    };
    if (typeof this.defaultTarget === 'string') snapshot.defaultTarget = this.defaultTarget;
    return snapshot;
  }

  /**
   * Replaces the chef's state with a snapshot's (validated, then copied: the snapshot can be
   * restored again). The default target is replaced only when the snapshot names one. The
   * history is not sanitised, so pending tool calls stay pending. A snapshot of the public
   * ContextChef (`systemPrompt`, no `schemaVersion`) is migrated: its system prompt and history
   * are imported, its other state is not (see {@link parseChefSnapshot}).
   * @throws {UnsupportedSnapshotVersionError} for a snapshot from a newer schema version.
   * @throws {IRValidationError} naming the path of anything else that is not a valid snapshot.
   */
  restore(snapshot: unknown): this {
    const parsed = cloneAsJson(parseChefSnapshot(snapshot), 'snapshot');
    this.system = parsed.system;
    this.history = parsed.history;
    if (parsed.defaultTarget !== undefined) this.defaultTarget = parsed.defaultTarget;
    return this;
  }
}

function systemFromText(text: string): Message[] {
  return text === '' ? [] : [{ role: 'system', content: text }];
}

function resolveAdapter(target: unknown): ITargetAdapter {
  if (typeof target === 'string') return adapterRegistry.get(target);
  if (typeof target === 'object' && target !== null && typeof Reflect.get(target, 'compile') === 'function') {
    return target as ITargetAdapter;
  }
  throw new IRValidationError(
    'target',
    'expected a target name or an object with a compile(messages) method',
  );
}

/** The adapter's own meta with every reported warning, each once. */
function withWarnings(meta: CompileMeta | undefined, collected: CompileWarning[]): CompileMeta {
  const warnings = [...(meta?.warnings ?? [])];
  for (const warning of collected) if (!warnings.includes(warning)) warnings.push(warning);
  return { ...meta, warnings };
}
