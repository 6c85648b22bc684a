/**
 * `onStream(consumer, options?)`: watch the current generation's model turns as they stream.
 * The consumer gets an async iterator when the policy starts; it ends when the generation ends
 * (return, error, reborn) or when `options.signal` aborts. A consumer that throws is logged and
 * never breaks the agent.
 */
import type { AgentContext } from '../context/agent-context.js';
import type { AgentStreamEvent } from '../context/agent-stream-event.js';
import { type SeedAgentStreamEvent, toSeedStreamEvent } from '../context/seed-stream-event.js';
import type { StreamConsumerEntry } from '../context/stream-consumer-entry.js';
import { requireOpenDraft } from './require-draft.js';

/** A stream consumer. */
export type StreamConsumer = (stream: AsyncIterable<AgentStreamEvent>) => void | Promise<void>;

/** A stream consumer written for the seed API's event names. */
export type SeedStreamConsumer = (stream: AsyncIterable<SeedAgentStreamEvent>) => void | Promise<void>;

/** Options of {@link onStream}. */
export interface OnStreamOptions {
  /**
   * `seed`: the events under the seed API's names (`turn_start`, `text`, `structured_data`,
   * `tool_call_stream`, `tool_call`, `turn_done` …), aliases of ours. @default 'flotilla'
   */
  eventNames?: 'flotilla' | 'seed';
  /** Ends this consumer's stream early. */
  signal?: AbortSignal;
  /** Whether the generation waits for the consumer to finish before it ends. @default true */
  awaitOnEnd?: boolean;
}

/**
 * Registers a stream consumer for this generation.
 * @throws ContextNotFoundError outside an agent run
 * @throws AfterPromptAgentError after the generation's policy started
 */
export function onStream(
  consumer: StreamConsumer,
  options?: OnStreamOptions & { eventNames?: 'flotilla' },
): void;
export function onStream(
  consumer: SeedStreamConsumer,
  options: OnStreamOptions & { eventNames: 'seed' },
): void;
export function onStream(consumer: StreamConsumer | SeedStreamConsumer, options: OnStreamOptions = {}): void {
  const context = requireOpenDraft('onStream');
  const seed = options.eventNames === 'seed';
  const own: StreamConsumer = seed
    ? (stream) => (consumer as SeedStreamConsumer)(renamed(stream))
    : (consumer as StreamConsumer);
  context.draft.streamConsumers.push(new QueuedStreamConsumer(context, own, options));
}

async function* renamed(stream: AsyncIterable<AgentStreamEvent>): AsyncGenerator<SeedAgentStreamEvent> {
  for await (const event of stream) yield toSeedStreamEvent(event);
}

class QueuedStreamConsumer implements StreamConsumerEntry {
  private readonly buffer: AgentStreamEvent[] = [];
  private wake: (() => void) | undefined;
  private ended = false;
  private running: Promise<void> | undefined;
  private readonly context: AgentContext;
  private readonly consumer: StreamConsumer;
  private readonly options: OnStreamOptions;

  constructor(context: AgentContext, consumer: StreamConsumer, options: OnStreamOptions) {
    this.context = context;
    this.consumer = consumer;
    this.options = options;
    options.signal?.addEventListener('abort', () => this.end(), { once: true });
  }

  start(): void {
    if (this.running) return;
    this.running = Promise.resolve()
      .then(() => this.consumer(this.iterate()))
      .catch((error: unknown) =>
        this.context.run.services.logger?.warn({ err: error }, 'onStream consumer failed'),
      );
  }

  push(event: AgentStreamEvent): void {
    if (this.ended) return;
    this.buffer.push(event);
    this.wake?.();
  }

  async close(): Promise<void> {
    this.end();
    if (this.running && (this.options.awaitOnEnd ?? true)) await this.running;
  }

  private end(): void {
    this.ended = true;
    this.wake?.();
  }

  private async *iterate(): AsyncGenerator<AgentStreamEvent> {
    for (;;) {
      const next = this.buffer.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.ended) return;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
      });
      this.wake = undefined;
    }
  }
}
