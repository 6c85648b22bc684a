/**
 * Traces of run trees across two real worker processes with an OpenTelemetry SDK registered:
 * the test submits inside a span of its own (in-memory exporter), the workers export their spans
 * to a file (`fixtures/span-file.ts`), and the whole tree — submit, runs, child runs, the
 * parent's resume, model turns, tools — is one trace with the right parent/child links; a run
 * whose worker was SIGKILLed shows both attempts' run spans: the lost one (emitted by the
 * attempt that took over) and its replay, side by side under the submit's `add` span.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type FlotillaClient } from '@flotilla/runtime/client';
import { trace } from '@opentelemetry/api';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { BullMQOtel } from 'bullmq-otel';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { useRedis } from '../support/redis.js';
import { WorkerProcesses } from '../support/worker-processes.js';
import { registerTracing } from './fixtures/register-tracing.js';
import { type ExportedSpan, exportedSpan, readSpanFile } from './fixtures/span-file.js';

const redis = useRedis(import.meta.filename);
const dir = mkdtempSync(join(tmpdir(), 'flotilla-spans-'));
const spanFile = join(dir, 'spans.jsonl');
const testSpans = new InMemorySpanExporter();
registerTracing(testSpans);
const tracer = trace.getTracer('flotilla-tests');
let workers: WorkerProcesses;
let client: FlotillaClient;

beforeAll(async () => {
  workers = new WorkerProcesses(fileURLToPath(new URL('./fixtures/traced-worker.ts', import.meta.url)), {
    REDIS_URL: redis.url,
    FLOTILLA_PREFIX: redis.prefix,
    SPAN_FILE: spanFile,
  });
  await Promise.all([workers.start(), workers.start()]);
  client = createClient({
    connection: redis.url,
    prefix: redis.prefix,
    telemetry: new BullMQOtel({ tracerName: 'flotilla' }),
  });
});
afterAll(async () => {
  await client?.close();
  await workers?.stop();
  if (!process.env.KEEP_SPANS) rmSync(dir, { recursive: true, force: true });
});

/** Submits `agentId` inside a test span and waits for the result; returns the trace id. */
async function submitTraced(agentId: string, input: unknown): Promise<{ traceId: string; output: unknown }> {
  return tracer.startActiveSpan(`test ${agentId}`, async (span) => {
    try {
      const run = await client.submit(agentId, input);
      return { traceId: span.spanContext().traceId, output: await run.result() };
    } finally {
      span.end();
    }
  });
}

/** Every span of the trace: the test's own and the workers'. */
function spansOf(traceId: string): ExportedSpan[] {
  const own = testSpans.getFinishedSpans().map((span) => exportedSpan(span, process.pid));
  return [...own, ...readSpanFile(spanFile)].filter((span) => span.traceId === traceId);
}

/** The span names from `span` up to the trace root. */
function ancestry(spans: ExportedSpan[], span: ExportedSpan): string[] {
  const byId = new Map(spans.map((candidate) => [candidate.spanId, candidate]));
  const names: string[] = [];
  for (let at = byId.get(span.parentSpanId ?? ''); at; at = byId.get(at.parentSpanId ?? ''))
    names.push(at.name);
  return names;
}

describe('a three-level run tree across two worker processes', () => {
  it('is one trace: the submit, each run attempt, its child runs, model turns and tools linked parent to child', async () => {
    const { traceId, output } = await submitTraced('trace-root', { n: 21 });
    expect(output).toBe('doubled=42');
    const spans = await vi.waitFor(
      () => {
        const found = spansOf(traceId);
        // The root's resume ends last: its second run span closes the tree.
        expect(found.filter((span) => span.name === 'flotilla.run trace-root')).toHaveLength(2);
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    const named = (name: string) => spans.filter((span) => span.name === name);
    const [leafRun] = named('flotilla.run trace-leaf');
    expect(leafRun).toBeDefined();
    const leafAncestry = ancestry(spans, leafRun as ExportedSpan);
    // Every level's run span is an ancestor of the next one's, through BullMQ's job spans.
    expect(leafAncestry.filter((name) => name.startsWith('flotilla.run '))).toEqual([
      'flotilla.run trace-mid',
      'flotilla.run trace-root',
    ]);
    expect(leafAncestry.at(-1)).toBe('test trace-root');
    expect(leafAncestry).toContain('process agents/trace-leaf');
    expect(leafRun?.attributes).toMatchObject({
      'flotilla.agent.id': 'trace-leaf',
      'flotilla.run.attempt': 1,
      'flotilla.replayed': false,
    });

    // The leaf's model turns (GenAI semantic conventions) and its tool call, inside its run span.
    const leafTurns = named('chat tree-model').filter(
      (span) => span.attributes['flotilla.agent.id'] === 'trace-leaf',
    );
    expect(leafTurns).toHaveLength(2);
    for (const turn of leafTurns) {
      expect(turn.parentSpanId).toBe(leafRun?.spanId);
      expect(turn.attributes).toMatchObject({
        'gen_ai.operation.name': 'chat',
        'gen_ai.system': 'mock',
        'gen_ai.request.model': 'tree-model',
        'gen_ai.usage.input_tokens': 10,
        'gen_ai.usage.output_tokens': 2,
        'flotilla.replayed': false,
      });
    }
    const [tool] = named('execute_tool work');
    expect(tool?.parentSpanId).toBe(leafRun?.spanId);
    expect(tool?.attributes).toMatchObject({ 'gen_ai.tool.name': 'work', 'flotilla.replayed': false });

    // The root ran twice: live until it suspended on its child, then replayed after it ended.
    const rootRuns = named('flotilla.run trace-root').sort(
      (a, b) => Number(a.attributes['flotilla.run.attempt']) - Number(b.attributes['flotilla.run.attempt']),
    );
    expect(rootRuns.map((span) => span.attributes['flotilla.replayed'])).toEqual([false, true]);
    const rootTurns = named('chat tree-model').filter(
      (span) => span.attributes['flotilla.agent.id'] === 'trace-root',
    );
    expect(rootTurns.map((span) => [span.parentSpanId, span.attributes['flotilla.replayed']])).toEqual(
      expect.arrayContaining([
        [rootRuns[0]?.spanId, false],
        [rootRuns[1]?.spanId, true],
      ]),
    );
    console.log(
      `tree trace: ${spans.length} spans from processes ${[...new Set(spans.map((span) => span.pid))].join(', ')}`,
    );
  });
});

describe('a run whose worker process was killed mid-run', () => {
  it('shows both attempts in one trace: the lost first attempt with its live turn, the replay with its replayed turn and live tool', async () => {
    const { traceId, output } = await submitTraced('crash-once', {});
    expect(output).toBe('doubled=10');
    const crashedPid = Number(await redis.redis.get(`${redis.prefix}:fx:crashed`));
    const spans = await vi.waitFor(
      () => {
        const found = spansOf(traceId);
        expect(found.filter((span) => span.name === 'flotilla.run crash-once')).toHaveLength(2);
        // BullMQ's `process` span ends after the run span, so it may be exported a moment later.
        expect(found.some((span) => span.name === 'process agents/crash-once')).toBe(true);
        return found;
      },
      { timeout: 10_000, interval: 50 },
    );
    const runs = spans.filter((span) => span.name === 'flotilla.run crash-once');
    const lost = runs.find((span) => span.attributes['flotilla.attempt.lost'] === true);
    const replay = runs.find((span) => span !== lost);
    expect(replay?.pid).not.toBe(crashedPid);
    expect(replay?.attributes).toMatchObject({ 'flotilla.run.attempt': 2, 'flotilla.replayed': true });
    expect(replay?.attributes['flotilla.attempt.lost']).toBeUndefined();
    expect(replay?.error).toBe(false);
    // The killed attempt's own run span never ended (its process died): the attempt that took
    // the run over emitted it, ended with an error, numbered as the first attempt.
    expect(lost?.pid).toBe(replay?.pid);
    expect(lost?.error).toBe(true);
    expect(lost?.attributes).toMatchObject({
      'flotilla.run.id': replay?.attributes['flotilla.run.id'],
      'flotilla.agent.id': 'crash-once',
      'flotilla.run.attempt': 1,
      'flotilla.attempt.lost': true,
    });
    const turns = spans.filter((span) => span.name === 'chat tree-model');
    const first = turns.filter((span) => span.pid === crashedPid);
    expect(first.map((span) => span.attributes['flotilla.replayed'])).toEqual([false]);
    const second = turns.filter((span) => span.parentSpanId === replay?.spanId);
    expect(second.map((span) => span.attributes['flotilla.replayed'])).toEqual([true, false]);
    const tools = spans.filter((span) => span.name === 'execute_tool work');
    expect(tools.map((span) => [span.pid, span.attributes['flotilla.replayed']])).toEqual([
      [replay?.pid, false],
    ]);
    // Both attempts hang under the submit's `add` span: the replay through its `process`
    // span, the lost one directly (its `process` span died with it).
    const add = spans.find((span) => span.name === 'add agents/crash-once.crash-once');
    expect(add).toBeDefined();
    expect(lost?.parentSpanId).toBe(add?.spanId);
    expect(ancestry(spans, lost as ExportedSpan)).toEqual([
      'add agents/crash-once.crash-once',
      'test crash-once',
    ]);
    expect(ancestry(spans, replay as ExportedSpan)).toEqual([
      'process agents/crash-once',
      'add agents/crash-once.crash-once',
      'test crash-once',
    ]);
    // The first attempt's finished turn names the span id that died; the lost span links to it.
    expect(lost?.links).toEqual([first[0]?.parentSpanId]);
  });
});
