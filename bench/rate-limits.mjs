/**
 * `node bench/rate-limits.mjs`: fleet-wide rate limits measured. 4 worker processes run 200 runs
 * (one model turn each) against a local OpenAI-compatible provider (`fake-openai-provider.mjs`)
 * that allows BENCH_PROVIDER_RPS requests per wall-clock second and answers 429 beyond, through
 * the real `openai` SDK adapter. Twice: with the fleet limit set under the provider's
 * (`limits: { rpm }`), and without one (each adapter backs off on its own). Prints one JSON line
 * per scenario: runs failed, 429s, the peak and mean requests per second at the provider, wall
 * time, and the added latency (the waits runs reported as `rate-limit-wait` events).
 * Not a test: nothing here asserts a timing.
 *
 * Env: REDIS_URL (default redis://127.0.0.1:6379), BENCH_RUNS (200), BENCH_WORKERS (4),
 * BENCH_PROVIDER_RPS (25), BENCH_RPM (1200 = 20/s, the limit "set right").
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { createClient } from '@flotilla/runtime/client';
import { startFakeOpenAIProvider } from './fake-openai-provider.mjs';
import { positiveInteger } from './positive-integer.mjs';

const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const runs = positiveInteger('BENCH_RUNS', 200);
const workerCount = positiveInteger('BENCH_WORKERS', 4);
const providerRps = positiveInteger('BENCH_PROVIDER_RPS', 25);
const rpm = positiveInteger('BENCH_RPM', 1200);
const workerProgram = fileURLToPath(new URL('./rate-limits-worker.mjs', import.meta.url));

async function startWorkers(env) {
  return Promise.all(
    Array.from({ length: workerCount }, () => {
      const child = spawn(process.execPath, [workerProgram], {
        env: { ...process.env, REDIS_URL: url, ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      return new Promise((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`bench worker exited early with ${code}`)));
        child.stdout.on('data', (chunk) => {
          if (chunk.toString().includes('ready')) resolve(child);
        });
      });
    }),
  );
}

async function stopWorkers(children) {
  await Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => {
          child.removeAllListeners('exit');
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
}

async function scenario(name, limitRpm) {
  const provider = await startFakeOpenAIProvider({ perSecond: providerRps });
  const prefix = `flotilla-bench-limits:${randomUUID().slice(0, 8)}`;
  const env = { FLOTILLA_PREFIX: prefix, BENCH_BASE_URL: provider.baseURL };
  if (limitRpm !== undefined) env.BENCH_RPM = String(limitRpm);
  const children = await startWorkers(env);
  const client = createClient({ connection: url, prefix });
  try {
    const startedAt = Date.now();
    const handles = await Promise.all(Array.from({ length: runs }, (_, n) => client.submit('asker', { n })));
    const ends = await Promise.all(
      handles.map(async (handle) => {
        await handle.result().catch(() => undefined);
        return client.getRun(handle.id);
      }),
    );
    const wallMs = Date.now() - startedAt;
    const waits = await Promise.all(
      handles.map(async (handle) => {
        let waited = 0;
        for await (const event of handle.events())
          if (event.type === 'rate-limit-wait') waited += event.waitMs;
        return waited;
      }),
    );
    waits.sort((a, b) => a - b);
    const durations = ends
      .map((record) => (record?.endedAt ?? 0) - (record?.createdAt ?? 0))
      .sort((a, b) => a - b);
    return {
      scenario: name,
      runs,
      workers: workerCount,
      providerLimitPerSecond: providerRps,
      fleetLimitPerSecond: limitRpm === undefined ? null : limitRpm / 60,
      failed: ends.filter((record) => record?.status !== 'succeeded').length,
      providerRequests: provider.stats.requests,
      rateLimited429: provider.stats.rateLimited,
      peakRequestsPerSecond: provider.peakPerSecond(),
      meanRequestsPerSecond: Math.round((provider.stats.ok / (wallMs / 1000)) * 10) / 10,
      wallMs,
      addedLatencyMs: {
        mean: Math.round(mean(waits)),
        p50: at(waits, 0.5),
        p95: at(waits, 0.95),
        max: waits.at(-1),
      },
      runDurationMs: { p50: at(durations, 0.5), p95: at(durations, 0.95) },
    };
  } finally {
    await client.close();
    await stopWorkers(children);
    await provider.close();
  }
}

const mean = (values) => values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length);
const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

console.log(JSON.stringify(await scenario('fleet limit under the provider limit', rpm)));
console.log(JSON.stringify(await scenario('no fleet limit (adapter backoff only)', undefined)));
process.exit(0);
