/**
 * The engine's handle on one `onStream` consumer: started when the policy barrier is crossed,
 * fed every stream event of the generation's turns, closed when the generation ends.
 */
import type { AgentStreamEvent } from './agent-stream-event.js';

/** One registered stream consumer of a generation. */
export interface StreamConsumerEntry {
  /** Starts the consumer (idempotent). */
  start(): void;
  /** Delivers one event. */
  push(event: AgentStreamEvent): void;
  /** Ends the stream; resolves when the consumer finished if it is awaited on end. */
  close(): Promise<void>;
}
