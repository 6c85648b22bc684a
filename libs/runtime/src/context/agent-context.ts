/**
 * The live state of one agent invocation: identity and position in the run (callPath, depth,
 * parent), the resolved configuration, agent-lifetime state (memory, resources, providers,
 * teardown, abort controller) and the current generation's {@link Draft}.
 */

import { AbortError } from '../errors/run-errors.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import { SETTLED } from '../shared/settled.js';
import { abortReason } from '../shared/when-aborted.js';
import { type BudgetState, emptyUsageStats } from '../usage/usage-stats.js';
import type { AgentDefinition } from './agent-definition.js';
import { AgentMemory } from './agent-memory.js';
import { Draft } from './draft.js';
import { ResourceSlots } from './resource-slots.js';
import type { RunState } from './run-state.js';
import { TeardownRegistry } from './teardown-registry.js';

/** Where a new agent context sits in the run. */
export interface AgentContextOptions {
  definition: AgentDefinition;
  run: RunState;
  callPath: string;
  parent: AgentContext | undefined;
  /** The agent's own model (already resolved from a string id), if it has one. */
  model: ModelAdapter | undefined;
  /** Depth of a root invocation (a child run's root sits below its caller). @default 0 */
  depth?: number;
  /** The model of the caller in another run, used when neither the agent nor a parent context has one. */
  inheritedModel?: ModelAdapter | undefined;
}

/** One agent invocation; hooks reach it through the implicit context. */
export class AgentContext {
  readonly definition: AgentDefinition;
  readonly run: RunState;
  /** E.g. `root/agent:writer:0` or `root/agent:writer:0/g0/agent:researcher:1`. */
  readonly callPath: string;
  readonly parent: AgentContext | undefined;
  /** 0 for the root agent of a run. */
  readonly depth: number;
  readonly memory: AgentMemory;
  /** Made at the first `equipResource` (or other read): most invocations equip none. */
  #resources: ResourceSlots | undefined;
  /** Values exposed to descendants (`equipResource(…, { expose: true })`). */
  readonly providers = new Map<string, unknown>();
  readonly teardown = new TeardownRegistry();
  /**
   * Usage of this invocation (`getUsageStats`): its own calls, and its own plus its descendants'.
   * Survives reborn; a replay rebuilds it from the journal.
   */
  readonly usage: BudgetState = { own: emptyUsageStats(), aggregate: emptyUsageStats() };
  /**
   * Made at the first read of {@link controller} or {@link signal} (a model call, a tool, an
   * abort handle), linked to the parent's signal then: an invocation nobody asks it of (a leaf
   * that calls no model, e.g. a fan-out's child) makes no controller, signal, listener or abort
   * event. Until then {@link throwIfAborted} reads the parent's signal and the closed state.
   */
  #controller: AbortController | undefined;
  /** The controller's signal, read once (its getter is a brand-checked accessor; every step reads it). */
  #signal: AbortSignal | undefined;
  /** Set by {@link close}: what the controller aborts with, when it is only made afterwards. */
  #closed: { reason: unknown } | undefined;
  private readonly ownModel: ModelAdapter | undefined;
  private readonly inheritedModel: ModelAdapter | undefined;
  private currentGeneration = 0;
  /** Made by {@link startGeneration} (every generation starts with one), or at a read before. */
  #draft: Draft | undefined;
  #unlinkParentSignal: (() => void) | undefined;

  constructor(options: AgentContextOptions) {
    this.definition = options.definition;
    this.run = options.run;
    this.callPath = options.callPath;
    this.parent = options.parent;
    this.depth = options.parent ? options.parent.depth + 1 : (options.depth ?? 0);
    this.ownModel = options.model;
    this.inheritedModel = options.inheritedModel;
    this.memory = new AgentMemory(options.run, options.callPath);
  }

  /** Aborted when this agent ends or any ancestor (or the run) is cancelled. */
  get controller(): AbortController {
    if (this.#controller) return this.#controller;
    const controller = new AbortController();
    this.#controller = controller;
    this.#signal = controller.signal;
    if (this.#closed) controller.abort(this.#closed.reason);
    else if (this.parent) this.#unlinkParentSignal = linkSignal(this.parent.signal, controller);
    else {
      // The run's abort when it has one (a worker's): no run signal made for the link.
      const { services } = this.run;
      this.#unlinkParentSignal = services.abort
        ? services.abort.link(controller)
        : linkSignal(services.signal, controller);
    }
    return controller;
  }

  /** What this invocation's controller links to: its parent's signal, or the run's abort (or signal). */
  #parentAbort(): { readonly aborted: boolean; readonly reason: unknown } {
    return this.parent?.signal ?? this.run.services.abort ?? this.run.services.signal;
  }

  get resources(): ResourceSlots {
    this.#resources ??= new ResourceSlots(this);
    return this.#resources;
  }

  get agentId(): string {
    return this.definition.id;
  }

  get signal(): AbortSignal {
    return this.#signal ?? this.controller.signal;
  }

  get generation(): number {
    return this.currentGeneration;
  }

  get draft(): Draft {
    this.#draft ??= new Draft();
    return this.#draft;
  }

  /** The path of the current generation; every journal position of the generation starts with it. */
  get generationPath(): string {
    return `${this.callPath}/g${this.currentGeneration}`;
  }

  /** Starts generation `generation` with an empty draft. */
  startGeneration(generation: number): void {
    this.currentGeneration = generation;
    this.#draft = new Draft();
  }

  /** The next journal position for an effect of `kind` on `target` in this generation. */
  nextPosition(kind: string, target?: string): string {
    const key = target === undefined ? kind : `${kind}:${target}`;
    return `${this.generationPath}/${key}:${this.draft.nextSequence(key)}`;
  }

  /** The model this agent prompts with: its own, else the nearest ancestor's (across runs too). */
  resolveModel(): ModelAdapter | undefined {
    return this.ownModel ?? (this.parent ? this.parent.resolveModel() : this.inheritedModel);
  }

  /** @throws AbortError when this agent, an ancestor or the run was cancelled. */
  throwIfAborted(): void {
    // Without a controller yet: aborted exactly when the parent's signal is (the link would have
    // passed its reason on), or once closed (the controller is then made, aborted).
    const signal = this.#signal ?? (this.#closed ? this.signal : this.#parentAbort());
    if (signal.aborted) throw new AbortError(abortReason(signal));
  }

  /** Ends the invocation: aborts what still runs under it and tears its resources down. */
  close(reason: string): Promise<void> {
    if (this.#controller) {
      this.#controller.abort(reason);
      this.#unlinkParentSignal?.();
    } else if (!this.#closed) {
      // The reason a linked controller would hold: the parent's, when it aborted first.
      const parent = this.#parentAbort();
      this.#closed = { reason: parent.aborted ? parent.reason : reason };
    }
    const tornDown = this.teardown.run(this.run.services.logger);
    // Nothing to tear down (the usual case): no extra promise for the providers' clearing.
    if (tornDown === SETTLED) {
      this.providers.clear();
      return SETTLED;
    }
    return tornDown.then(() => this.providers.clear());
  }
}

/** Aborts `child` when `parent` aborts; returns the unlink function. */
export function linkSignal(parent: AbortSignal, child: AbortController): () => void {
  if (parent.aborted) {
    child.abort(parent.reason);
    return () => {};
  }
  const onAbort = () => child.abort(parent.reason);
  parent.addEventListener('abort', onAbort, { once: true });
  return () => parent.removeEventListener('abort', onAbort);
}
