/**
 * Flotilla's spans, on `@opentelemetry/api` only: without an OpenTelemetry SDK registered in the
 * process the API hands out no-op spans, so tracing costs next to nothing until an operator
 * configures an SDK (docs/observability.md). Span and attribute names live here, in one place.
 */
import {
  type Attributes,
  context,
  INVALID_SPAN_CONTEXT,
  ProxyTracerProvider,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

const tracer = trace.getTracer('@flotilla/runtime');

/** The API's no-op provider: what the global proxy delegates to while no SDK is registered. */
const NOOP_PROVIDER = new ProxyTracerProvider().getDelegate();
/** The span work gets when none is made: what the no-op tracer hands out without a parent. */
const NON_RECORDING_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

/**
 * Whether no tracer provider is registered (checked per call: one can be registered, or the API
 * disabled, at any time). A registered provider is returned by `getTracerProvider` itself, not
 * the proxy; the proxy's delegate is then the SDK's too.
 */
export function tracingOff(): boolean {
  const provider = trace.getTracerProvider();
  return provider instanceof ProxyTracerProvider && provider.getDelegate() === NOOP_PROVIDER;
}

/** Attribute names Flotilla sets besides the OpenTelemetry semantic conventions. */
export const SpanAttribute = {
  runId: 'flotilla.run.id',
  agentId: 'flotilla.agent.id',
  attempt: 'flotilla.run.attempt',
  /** `true` on a step served from the journal (a replay), `false` on one done live. */
  replayed: 'flotilla.replayed',
  position: 'flotilla.step.position',
  outcome: 'flotilla.run.outcome',
  /** `true` on the run span of an attempt that died with its process, emitted by the attempt that took over. */
  attemptLost: 'flotilla.attempt.lost',
} as const;

/** The tracer of Flotilla's spans (for spans {@link inSpan} cannot make: one emitted after the fact). */
export function flotillaTracer() {
  return tracer;
}

/** Options of {@link inSpan}. */
export interface InSpanOptions {
  /** @default SpanKind.INTERNAL */
  kind?: SpanKind;
  /** Errors that end the work as planned (e.g. a suspension): recorded as an event, not an error status. */
  expected?: (error: unknown) => boolean;
}

/**
 * Runs `work` inside a new active span (so spans and BullMQ jobs started by it are its
 * children), records a thrown error on it, and ends it.
 */
export function inSpan<T>(
  name: string,
  attributes: Attributes,
  work: (span: Span) => Promise<T>,
  options: InSpanOptions = {},
): Promise<T> {
  // Without a provider every span is a no-op: skip the span, its closure, its promise and the
  // context switch (a step's and a run's CPU on the worker). The work still gets the span the
  // no-op tracer would have made: the active parent's context, unrecorded, or an invalid one.
  // Not an async function: its promise, and the job adopting the work's, would cost three more.
  if (tracingOff()) {
    try {
      const parent = trace.getSpan(context.active());
      return work(parent === undefined ? NON_RECORDING_SPAN : trace.wrapSpanContext(parent.spanContext()));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return tracer.startActiveSpan(
    name,
    { kind: options.kind ?? SpanKind.INTERNAL, attributes },
    async (span) => {
      try {
        return await work(span);
      } catch (error) {
        const name = error instanceof Error ? error.name : 'error';
        if (options.expected?.(error)) span.addEvent(`flotilla.${name}`);
        else {
          span.recordException(error instanceof Error ? error : String(error));
          span.setStatus({ code: SpanStatusCode.ERROR, message: name });
        }
        throw error;
      } finally {
        span.end();
      }
    },
  );
}
