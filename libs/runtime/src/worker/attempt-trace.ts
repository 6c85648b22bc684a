/**
 * Making an attempt that died with its process visible in the trace. A SIGKILLed attempt never
 * ends its run span, so the span is never exported (only the steps it finished are). While its
 * run span is recorded, each attempt leaves the span's trace mark (ids, start, attempt number)
 * on the run's record and clears it when the span ends; the attempt that takes the run over
 * finds a mark still there and emits the lost attempt's run span after the fact: same name,
 * same trace, started when that attempt started, ended at the takeover, status ERROR,
 * `flotilla.attempt.lost=true`, with a link to the span id the lost attempt's steps point to.
 * Its parent is the job's producer span (BullMQ's propagated context: the parent of both
 * attempts' `process` spans), so both attempts hang side by side under it.
 *
 * Only when an OpenTelemetry SDK records the run span: without one this costs nothing.
 */
import {
  type Context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { RedisRunRecords } from '../runs/redis-run-records.js';
import { flotillaTracer, SpanAttribute } from '../shared/tracing.js';

/** What the record keeps of an attempt's run span while it runs. */
const markSchema = z.object({
  traceId: z.string().regex(/^[0-9a-f]{32}$/),
  spanId: z.string().regex(/^[0-9a-f]{16}$/),
  traceFlags: z.int().min(0).max(255),
  startedAt: z.number().nonnegative(),
  attempt: z.int().nonnegative(),
});

type AttemptTraceMark = z.infer<typeof markSchema>;

/** The attempt whose run span `span` is. */
export interface TracedAttempt {
  runId: string;
  agentId: string;
  /** The attempt's number (`flotilla.run.attempt`). */
  attempt: number;
  /** The attempt's fencing token. */
  token: string;
  job: Job;
  /** The context the run span was started in (its parent). */
  parent: Context;
}

/**
 * Leaves the run span's mark on the record and emits the run span of a lost earlier attempt,
 * if any. Returns what clears the mark once the span ends. Tracing never fails a run: a failed
 * read or write is logged and the attempt goes on.
 */
export async function traceAttempt(
  records: RedisRunRecords,
  span: Span,
  attempt: TracedAttempt,
  logger: Logger,
): Promise<() => Promise<void>> {
  if (!span.isRecording()) return async () => {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  const mark = JSON.stringify({
    traceId,
    spanId,
    traceFlags,
    startedAt: Date.now(),
    attempt: attempt.attempt,
  });
  try {
    const earlier = parseMark(await records.swapAttemptTrace(attempt.runId, mark, attempt.token));
    if (earlier && earlier.spanId !== spanId) emitLostAttempt(earlier, attempt);
  } catch (error) {
    logger.warn({ err: error }, 'attempt trace mark not written; a lost attempt may not show in the trace');
    return async () => {};
  }
  return () =>
    records
      .clearAttemptTrace(attempt.runId, mark)
      .catch((error: unknown) => logger.warn({ err: error }, 'attempt trace mark not cleared'));
}

/** The run span the lost attempt never ended, as it would have been, ended now. */
function emitLostAttempt(lost: AttemptTraceMark, taker: TracedAttempt): void {
  const span = flotillaTracer().startSpan(
    `flotilla.run ${taker.agentId}`,
    {
      startTime: lost.startedAt,
      attributes: {
        [SpanAttribute.runId]: taker.runId,
        [SpanAttribute.agentId]: taker.agentId,
        [SpanAttribute.attempt]: lost.attempt,
        [SpanAttribute.attemptLost]: true,
      },
      // The lost attempt's finished steps have this span id as parent: the link joins them.
      links: [{ context: { traceId: lost.traceId, spanId: lost.spanId, traceFlags: lost.traceFlags } }],
    },
    producerContext(taker) ?? taker.parent,
  );
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: `attempt ${lost.attempt} was lost: its worker stopped without ending it; attempt ${taker.attempt} took the run over`,
  });
  span.end();
}

/** The job's producer context as BullMQ propagated it (`opts.telemetry.metadata`), if any. */
function producerContext(attempt: TracedAttempt): Context | undefined {
  const metadata = (attempt.job.opts as { telemetry?: { metadata?: unknown } }).telemetry?.metadata;
  if (typeof metadata !== 'string' || metadata.length > 4096) return undefined;
  try {
    const carrier: unknown = JSON.parse(metadata);
    if (typeof carrier !== 'object' || carrier === null) return undefined;
    const extracted = propagation.extract(ROOT_CONTEXT, carrier);
    return trace.getSpanContext(extracted) ? extracted : undefined;
  } catch {
    return undefined;
  }
}

function parseMark(text: string | undefined): AttemptTraceMark | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = markSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
