/**
 * In-memory {@link RunServices} for embedded mode and tests: no Redis, same semantics.
 */

import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { InMemoryOffloadedOutputs } from '../budget/offloaded-outputs.js';
import type { RunJournal, RunMemoryStore, RunServices } from '../context/run-services.js';
import type { RunEvent } from '../events/run-event.js';
import { type AnyModelAdapter, toModelMap } from '../model/stream-model-adapter.js';
import type { ConversationStore } from '../store/conversation-store.js';
import { InMemoryConversationStore } from '../store/in-memory-conversation-store.js';
import { checkPriceTable, type PriceTable } from '../usage/budget-options.js';
import { CollectingEventSink } from './collecting-event-sink.js';
import { InMemoryRunJournal } from './in-memory-run-journal.js';
import { InMemoryRunMemoryStore } from './in-memory-run-memory-store.js';

/** Options of {@link createEmbeddedServices}; every field has an in-memory default. */
export interface EmbeddedServicesOptions {
  /** @default a random UUID */
  runId?: string;
  /** Model ids that `createAgent({ model: 'id' })` may name: our adapters or the seed's streaming ones (wrapped). @default none */
  models?: Record<string, AnyModelAdapter> | ReadonlyMap<string, AnyModelAdapter>;
  conversationId?: string;
  /** @default a new InMemoryConversationStore */
  conversations?: ConversationStore;
  /** @default a new InMemoryRunJournal */
  journal?: RunJournal;
  /** @default a new InMemoryRunMemoryStore */
  memory?: RunMemoryStore;
  /** Receives every run event as it happens. */
  onEvent?: (event: RunEvent) => void;
  /** Cancels the run. @default never aborted */
  signal?: AbortSignal;
  /** Scope layers visible to every agent of the run, outermost first. */
  scope?: Record<string, unknown>[];
  logger?: Logger;
  /**
   * Prices of models for usage costs, as `createWorker({ prices })` (an agent's
   * `equipBudget({ prices })` entries win). Invalid → `InvalidBudgetError`. @default none
   */
  prices?: PriceTable;
}

/** In-memory services plus the collected events. */
export interface EmbeddedServices extends RunServices {
  events: CollectingEventSink;
}

/** Builds in-memory {@link RunServices}. */
export function createEmbeddedServices(options: EmbeddedServicesOptions = {}): EmbeddedServices {
  const services: EmbeddedServices = {
    runId: options.runId ?? randomUUID(),
    journal: options.journal ?? new InMemoryRunJournal(),
    memory: options.memory ?? new InMemoryRunMemoryStore(),
    conversations: options.conversations ?? new InMemoryConversationStore(),
    events: new CollectingEventSink(options.onEvent),
    models: toModelMap(options.models),
    signal: options.signal ?? new AbortController().signal,
    outputs: new InMemoryOffloadedOutputs(),
  };
  if (options.conversationId !== undefined) services.conversationId = options.conversationId;
  if (options.scope !== undefined) services.scope = options.scope;
  if (options.logger !== undefined) services.logger = options.logger;
  if (options.prices !== undefined)
    services.budget = { prices: checkPriceTable(options.prices, 'runAgent', 'prices') };
  return services;
}
