/**
 * Flotilla's spans, on `@opentelemetry/api` only: without an OpenTelemetry SDK registered in the
 * process the API hands out no-op spans, so tracing costs next to nothing until an operator
 * configures an SDK (docs/observability.md). Span and attribute names live here, in one place.
 */
import { type Attributes, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';

const tracer = trace.getTracer('@flotilla/runtime');

/** Attribute names Flotilla sets besides the OpenTelemetry semantic conventions. */
export const SpanAttribute = {
  runId: 'flotilla.run.id',
  agentId: 'flotilla.agent.id',
  attempt: 'flotilla.run.attempt',
  /** `true` on a step served from the journal (a replay), `false` on one done live. */
  replayed: 'flotilla.replayed',
  position: 'flotilla.step.position',
  outcome: 'flotilla.run.outcome',
} as const;

/**
 * Runs `work` inside a new active span (so spans and BullMQ jobs started by it are its
 * children), records a thrown error on it, and ends it.
 */
export async function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  kind: SpanKind = SpanKind.INTERNAL,
): Promise<T> {
  return tracer.startActiveSpan(name, { kind, attributes }, async (span) => {
    try {
      return await work(span);
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'error' });
      throw error;
    } finally {
      span.end();
    }
  });
}
