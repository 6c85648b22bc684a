/**
 * Per-generation scratch state the draft hooks fill in before the policy runs: system prompts,
 * instructions, tools, loop middlewares, validators, stream consumers and scope layers, plus
 * the `prompted` flag, the turn counter and the position counters. A new, empty draft starts
 * every generation, which is why hooks must be called again after `reborn()`.
 */
import type { Message } from '@flotilla/ir';
import type { ResolvedContextBudget } from '../budget/context-budget-options.js';
import type { EquippedTool } from '../tools/equipped-tool.js';
import type { ToolCallLoopMiddleware } from '../tools/tool-call-loop-middleware.js';
import type { ResolvedBudget } from '../usage/budget-options.js';
import type { OutputValidator } from './output-validator.js';
import type { StreamConsumerEntry } from './stream-consumer-entry.js';

/** The scratch state of one generation. */
export class Draft {
  readonly system: Message[] = [];
  readonly instructions: Message[] = [];
  readonly tools = new Map<string, EquippedTool>();
  readonly loopMiddlewares: ToolCallLoopMiddleware[] = [];
  readonly validators: OutputValidator[] = [];
  readonly streamConsumers: StreamConsumerEntry[] = [];
  readonly scopeLayers: Record<string, unknown>[] = [];
  /** `equipContextBudget`: keeps this generation's prompts under a token budget. @default none */
  contextBudget: ResolvedContextBudget | undefined = undefined;
  /** `equipBudget` calls of this generation, in registration order. */
  readonly budgets: ResolvedBudget[] = [];
  /** Set when the generation's policy starts; draft hooks throw from then on. */
  prompted = false;
  /** Model turns used by this generation (live and replayed), checked against `maxTurnSteps`. */
  turnSteps = 0;
  /** `patched(changeId)` answers given in this generation: the first answer holds for the whole generation. */
  readonly patches = new Map<string, boolean>();
  private readonly counters = new Map<string, number>();

  /** The next sequence number for `key` in this generation: 0, 1, 2 … in call order. */
  nextSequence(key: string): number {
    const sequence = this.counters.get(key) ?? 0;
    this.counters.set(key, sequence + 1);
    return sequence;
  }

  /** Whether position `<key>:<sequence>` of this generation was already taken (by `nextSequence`). */
  hasTaken(key: string, sequence: number): boolean {
    return sequence < (this.counters.get(key) ?? 0);
  }
}
