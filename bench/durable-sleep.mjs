/**
 * How late a durable `sleep` ends: N runs each sleep SLEEP_MS; the worker is closed while they
 * sleep and a new one started (a restart), and each run's lateness is the time from its due time
 * (`sleep-started.until`) to the moment its code went on after the sleep. Prints one JSON line.
 * A figure, not a test: it depends on BullMQ's delayed-job promotion and the machine.
 * Standalone: `node bench/durable-sleep.mjs` (BENCH_SLEEP_RUNS default 20, BENCH_SLEEP_MS default 2000).
 */
import { randomUUID } from 'node:crypto';
import { createAgent, sleep } from '@flotilla/runtime';
import { createClient } from '@flotilla/runtime/client';
import { createWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';

const SleepyAgent = createAgent({
  id: 'sleepy',
  handler: async ({ ms }) => {
    await sleep(ms);
    return { wokeAt: Date.now() };
  },
});

function startWorker(url, prefix) {
  return createWorker({
    agents: [SleepyAgent],
    connection: url,
    prefix,
    concurrency: 8,
    logger: pino({ level: 'silent' }),
    env: {},
  });
}

/** @param {{ url: string, runs: number, sleepMs: number }} options */
export async function measureSleepLateness({ url, runs, sleepMs }) {
  const prefix = `flotilla-bench-sleep:${randomUUID().slice(0, 8)}`;
  const client = createClient({ connection: url, prefix, env: {} });
  let worker = startWorker(url, prefix);
  try {
    await worker.waitUntilReady();
    const handles = await Promise.all(
      Array.from({ length: runs }, () => client.submit(SleepyAgent, { ms: sleepMs })),
    );
    // Restart while they sleep: every run is parked, none holds the closing worker.
    for (const handle of handles) await waitForStatus(client, handle.id, 'waiting');
    await worker.close();
    worker = startWorker(url, prefix);
    await worker.waitUntilReady();
    const lateness = [];
    for (const handle of handles) {
      const { wokeAt } = await handle.result();
      let until;
      for await (const event of handle.events()) if (event.type === 'sleep-started') until = event.until;
      lateness.push(wokeAt - until);
    }
    lateness.sort((a, b) => a - b);
    const at = (q) => lateness[Math.min(lateness.length - 1, Math.floor(q * lateness.length))];
    return {
      runs,
      sleepMs,
      restart: true,
      latenessMs: { min: lateness[0], p50: at(0.5), p95: at(0.95), max: at(1) },
    };
  } finally {
    await client.close();
    await worker.close();
  }
}

async function waitForStatus(client, runId, status) {
  for (const deadline = Date.now() + 30_000; Date.now() < deadline; ) {
    if ((await client.getRun(runId))?.status === status) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`run ${runId} never reached ${status}`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  const result = await measureSleepLateness({
    url,
    runs: Number(process.env.BENCH_SLEEP_RUNS ?? 20),
    sleepMs: Number(process.env.BENCH_SLEEP_MS ?? 2000),
  });
  console.log(JSON.stringify({ bench: 'durable-sleep', ...result }));
}
