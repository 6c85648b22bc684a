/**
 * The fleet-wide budgets of provider/models in Redis (`modelBudgetKey`: one hash per
 * provider/model under its own hash tag). Each operation is one script, one round trip:
 * `reserve` (GCRA over requests and tokens), `pause` (a 429), `settle` (the real usage).
 */
import type { Redis } from 'ioredis';
import { modelBudgetKey } from '../keys.js';
import { pauseBudgetScript } from './lua/pause-budget-1.lua.js';
import { reserveBudgetScript } from './lua/reserve-budget-1.lua.js';
import { settleBudgetScript } from './lua/settle-budget-1.lua.js';
import type { ResolvedModelLimits } from './model-limits.js';

/** A provider/model, as adapters name them. */
export interface BudgetedModel {
  provider: string;
  id: string;
}

/** What `reserve` answered. */
export interface Reservation {
  /** Whether the call may go once `waitMs` passed (else it asks again then). */
  reserved: boolean;
  waitMs: number;
  /** How much of the wait is a 429's pause. */
  pausedMs: number;
}

/** The pure ARGV of `reserve-budget-1` (testable without Redis). */
export function reserveBudgetArgs(limits: ResolvedModelLimits, tokens: number, horizonMs: number): number[] {
  const requestInterval = limits.rpm === undefined ? 0 : 60_000 / limits.rpm;
  const tokenInterval = limits.tpm === undefined ? 0 : 60_000 / limits.tpm;
  return [
    requestInterval,
    (limits.burst - 1) * requestInterval,
    tokenInterval,
    Math.max(0, tokens),
    horizonMs,
  ];
}

export class ModelBudgets {
  readonly #redis: Redis;
  readonly #prefix: string;

  constructor(options: { redis: Redis; prefix: string }) {
    this.#redis = options.redis;
    this.#prefix = options.prefix;
  }

  async reserve(
    model: BudgetedModel,
    limits: ResolvedModelLimits,
    tokens: number,
    horizonMs: number,
  ): Promise<Reservation> {
    const [code, waitMs, pausedMs] = (await reserveBudgetScript.run(
      this.#redis,
      [this.#key(model)],
      reserveBudgetArgs(limits, tokens, horizonMs),
    )) as [number, number, number];
    return {
      reserved: code === 1,
      waitMs: Math.max(0, Number(waitMs)),
      pausedMs: Math.max(0, Number(pausedMs)),
    };
  }

  /** Pauses the model's budget for the whole fleet for `ms` from now (pauses only grow). */
  async pause(model: BudgetedModel, ms: number): Promise<void> {
    await pauseBudgetScript.run(this.#redis, [this.#key(model)], [Math.max(0, Math.ceil(ms))]);
  }

  /** Corrects the token schedule by `usedTokens - estimatedTokens` (no-op without `tpm`). */
  async settle(
    model: BudgetedModel,
    limits: ResolvedModelLimits,
    estimatedTokens: number,
    usedTokens: number,
  ): Promise<void> {
    if (limits.tpm === undefined || usedTokens === estimatedTokens) return;
    const shiftMs = (usedTokens - estimatedTokens) * (60_000 / limits.tpm);
    await settleBudgetScript.run(this.#redis, [this.#key(model)], [shiftMs]);
  }

  #key(model: BudgetedModel): string {
    return modelBudgetKey(this.#prefix, model.provider, model.id);
  }
}
