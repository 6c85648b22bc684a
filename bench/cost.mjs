/**
 * The cost bench: for each shape (`cost-shapes.mjs`: one-turn, conversation, 1→10 fan-out) and
 * each worker concurrency, raw BullMQ then Flotilla, side by side in one run, on a private
 * `redis-server` (so its CPU and commands are the bench's alone):
 *   - throughput: N runs submitted by one client that awaits each one (`result()`, or for raw
 *     BullMQ `waitUntilFinished`), at most `window` in flight (twice the concurrency);
 *   - CPU ms per run of the worker (a child process, `cost-worker.mjs`), of the client (this
 *     process: submit + await) and of Redis (`INFO cpu`);
 *   - Redis commands per run (`INFO commandstats`, script calls included), their own time
 *     (`usec`) per run, and the commands that take most of it.
 * Prints one JSON line per phase, one `cost-ratio` line per pair (Flotilla over raw), then a
 * Markdown table of every pair. With BENCH_FLOOR, each pair is followed by the shape's storage
 * floor (`storage-floor.mjs`: raw BullMQ plus a Flotilla run's writes, no Flotilla code) and a
 * `floor-ratio` line. Not a test: nothing here asserts a timing.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createClient } from '@flotilla/runtime/client';
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { BenchConnections } from './bench-connections.mjs';
import { expectedOutput, FANOUT_WIDTH, flotillaSubmission, rawSubmission } from './cost-shapes.mjs';
import { startPrivateRedis } from './private-redis.mjs';
import { redisCostPerRun, redisSnapshot, round } from './redis-cost.mjs';
import {
  captureFloorTemplate,
  coalesced,
  FLOOR_SHAPES,
  FLOOR_VARIANTS,
  floorIds,
  floorVariant,
  floorWriter,
  sendCalls,
} from './storage-floor.mjs';

const WORKER_SCRIPT = new URL('./cost-worker.mjs', import.meta.url);

/**
 * @typedef {{ runs: Record<string, number>, concurrencies: number[], shapes: string[],
 *   window?: number, warmup: number, phaseTimeoutMs: number, redisUrl?: string, floor: string[] }} CostBenchOptions
 */

/** A worker process for one phase, answering over IPC (see `cost-worker.mjs`). */
class WorkerProcess {
  #child;
  #replies = [];

  constructor() {
    // The worker inherits the bench's node flags (`node --cpu-prof bench/run.mjs` profiles both);
    // BENCH_WORKER_NODE_ARGS (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof") gives it its own, to
    // profile the worker alone (NODE_OPTIONS refuses --cpu-prof).
    const execArgv = process.env.BENCH_WORKER_NODE_ARGS?.split(' ').filter(Boolean) ?? process.execArgv;
    this.#child = fork(WORKER_SCRIPT, { execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.#child.on('message', (message) => this.#replies.shift()?.resolve(message));
    this.#child.on('exit', (code) => {
      for (const reply of this.#replies.splice(0)) reply.reject(new Error(`cost-worker exited with ${code}`));
    });
  }

  /** Sends `message` and waits for the reply, for at most `timeoutMs`. */
  ask(message, timeoutMs) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`cost-worker: no reply within ${timeoutMs} ms`)),
        timeoutMs,
      );
      const settle = (fn) => (value) => {
        clearTimeout(timer);
        fn(value);
      };
      this.#replies.push({ resolve: settle(resolve), reject: settle(reject) });
      this.#child.send(message);
    });
  }

  async cpuMs(timeoutMs) {
    const { cpu } = await this.ask({ cpu: true }, timeoutMs);
    return (cpu.user + cpu.system) / 1000;
  }

  async close(timeoutMs) {
    await this.ask({ close: true }, timeoutMs).catch(() => this.#child.kill('SIGKILL'));
  }
}

/** A client submitting one run of the shape and awaiting its output, per system. */
function openClient(system, shape, { url, prefix, queueName, floor }) {
  if (system === 'flotilla') {
    const client = createClient({ connection: url, prefix, queueName, env: {} });
    return {
      runOne: async () => {
        const { agent, input, options } = flotillaSubmission(shape);
        return (await client.submit(agent, input, options)).result();
      },
      close: () => client.close(),
    };
  }
  const connections = new BenchConnections(url);
  // The floor's command connections coalesce a tick's writes, as a Flotilla client's does.
  const commands = () => (floor ? coalesced(connections.connect()) : connections.connect());
  const queue = new Queue(queueName, { connection: commands(), prefix });
  const events = new QueueEvents(queueName, { connection: connections.connect(), prefix });
  const writes = floor ? commands() : undefined;
  const callsOf = floor ? floorWriter(floor, 'client', prefix) : undefined;
  // waitUntilFinished listens for the queue's closing once per awaited job.
  queue.setMaxListeners(Number.POSITIVE_INFINITY);
  return {
    ready: () => events.waitUntilReady(),
    runOne: async () => {
      const { name, data } = rawSubmission(shape);
      const options = { removeOnComplete: { age: 3600, count: 1000 } };
      if (floor) {
        // The floor: the client's share of a Flotilla run's writes first, as our submit does.
        const runId = randomUUID();
        const conversationId = `bench-${randomUUID()}`;
        await sendCalls(writes, callsOf(floorIds(floor, runId, conversationId)));
        Object.assign(data, { conversationId });
        Object.assign(options, { jobId: runId });
      }
      const job = await queue.add(name, data, options);
      return job.waitUntilFinished(events);
    },
    close: async () => {
      await events.close();
      await queue.close();
      await connections.close();
    },
  };
}

/** Runs `count` runs through `runOne`, at most `window` at once; the outputs of the first. */
async function runMany(runOne, count, window) {
  let next = 0;
  let first;
  const lane = async () => {
    while (next < count) {
      const index = next++;
      const output = await runOne();
      if (index === 0) first = output;
    }
  };
  await Promise.all(Array.from({ length: Math.min(window, count) }, lane));
  return first;
}

function withDeadline(promise, timeoutMs, what) {
  let timer;
  const deadline = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

const cpuMsOfThisProcess = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/**
 * CPU ms of this process' main thread alone (Linux: its `/proc` stat, in clock ticks of 10 ms),
 * or `undefined` elsewhere. The rest of `process.cpuUsage()` is spent by V8's helper threads
 * (optimizing compiles, concurrent GC) and libuv's: in a phase's first thousand runs that is
 * mostly the JIT compiling what the phase runs (docs/performance.md, round 7).
 */
const mainThreadCpuMs = () => {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // utime and stime: fields 14 and 15, counted after the command name's closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
};

/** One phase: `runs` runs of `shape` on `system` at `concurrency`; its figures per run. */
async function phase(
  { system, shape, concurrency, runs, window, warmup, phaseTimeoutMs, floor },
  url,
  admin,
) {
  const prefix = `bench-cost:${randomUUID().slice(0, 8)}`;
  const queueName = system === 'flotilla' ? 'agents' : 'raw';
  const worker = new WorkerProcess();
  const client = openClient(system, shape, { url, prefix, queueName, floor });
  try {
    await worker.ask(
      { system: system === 'floor' ? 'bullmq' : system, shape, concurrency, url, prefix, queueName, floor },
      phaseTimeoutMs,
    );
    await client.ready?.();
    // Warm up (JIT, connections, Lua script loading) before anything is counted: `warmup` runs, at
    // most the phase's own count (BENCH_WARMUP=1000: a whole pass first, so the figures are a
    // long-lived process' steady state rather than its first thousand runs' compiles).
    const warmupRuns = Math.min(warmup, runs);
    await withDeadline(runMany(client.runOne, warmupRuns, window), phaseTimeoutMs, 'warm-up');
    const before = {
      worker: await worker.cpuMs(phaseTimeoutMs),
      client: cpuMsOfThisProcess(),
      clientMainThread: mainThreadCpuMs(),
      redis: await redisSnapshot(admin),
    };
    const started = performance.now();
    const output = await withDeadline(
      runMany(client.runOne, runs, window),
      phaseTimeoutMs,
      `${system} ${shape}`,
    );
    const seconds = (performance.now() - started) / 1000;
    const after = {
      client: cpuMsOfThisProcess(),
      clientMainThread: mainThreadCpuMs(),
      worker: await worker.cpuMs(phaseTimeoutMs),
      redis: await redisSnapshot(admin),
    };
    if (JSON.stringify(output) !== JSON.stringify(expectedOutput[shape]))
      throw new Error(`${system} ${shape} answered ${JSON.stringify(output)}`);
    const redis = redisCostPerRun(before.redis, after.redis, runs);
    return {
      bench: 'cost',
      shape,
      concurrency,
      system,
      runs,
      warmupRuns,
      seconds: round(seconds, 3),
      runsPerSecond: round(runs / seconds, 1),
      cpuMsPerRun: {
        worker: round((after.worker - before.worker) / runs, 3),
        client: round((after.client - before.client) / runs, 3),
        // Of `client`: the main thread's share (the rest is V8's JIT and GC threads), when known.
        clientMainThread:
          before.clientMainThread === undefined || after.clientMainThread === undefined
            ? undefined
            : round((after.clientMainThread - before.clientMainThread) / runs, 3),
        redis: redis.cpuMs,
      },
      redisCommandsPerRun: redis.commands,
      redisCommandUsPerRun: redis.commandUs,
      topCommands: redis.topCommands,
    };
  } finally {
    await client.close();
    await worker.close(phaseTimeoutMs);
    await admin.flushall();
  }
}

const ratio = (a, b) => (b > 0 ? round(a / b, 2) : null);

function ratioLine(raw, flotilla) {
  return {
    bench: 'cost-ratio',
    shape: raw.shape,
    concurrency: raw.concurrency,
    throughput: ratio(flotilla.runsPerSecond, raw.runsPerSecond),
    cpuWorker: ratio(flotilla.cpuMsPerRun.worker, raw.cpuMsPerRun.worker),
    cpuClient: ratio(flotilla.cpuMsPerRun.client, raw.cpuMsPerRun.client),
    cpuRedis: ratio(flotilla.cpuMsPerRun.redis, raw.cpuMsPerRun.redis),
    commands: ratio(flotilla.redisCommandsPerRun, raw.redisCommandsPerRun),
    commandUs: ratio(flotilla.redisCommandUsPerRun, raw.redisCommandUsPerRun),
  };
}

/** Every pair as one Markdown table (Flotilla / raw in each cell), for `docs/performance.md`. */
function table(pairs) {
  const cell = (f, r, digits = 2) => `${round(f, digits)} / ${round(r, digits)}`;
  const rows = pairs.map(({ raw, flotilla, ratios }) =>
    [
      `${raw.shape}${raw.shape === 'fanout' ? ` (1→${FANOUT_WIDTH}, per tree)` : ''}${flotilla.variant ? `, ${flotilla.variant}` : ''}`,
      raw.concurrency,
      `${cell(flotilla.runsPerSecond, raw.runsPerSecond, 0)} (${ratios.throughput}×)`,
      cell(flotilla.cpuMsPerRun.worker, raw.cpuMsPerRun.worker),
      cell(flotilla.cpuMsPerRun.client, raw.cpuMsPerRun.client),
      cell(flotilla.cpuMsPerRun.redis, raw.cpuMsPerRun.redis),
      cell(flotilla.redisCommandsPerRun, raw.redisCommandsPerRun, 1),
    ].join(' | '),
  );
  return [
    '| shape | concurrency | runs/s Flotilla / raw (ratio) | worker CPU ms/run | client CPU ms/run | Redis CPU ms/run | Redis commands/run |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows.map((row) => `| ${row} |`),
  ].join('\n');
}

/**
 * Runs every phase and prints its lines; returns the pairs.
 * @param {CostBenchOptions} options
 */
export async function benchCosts(options) {
  const server = options.redisUrl ? undefined : await startPrivateRedis();
  const url = options.redisUrl ?? server.url;
  const admin = new Redis(url);
  const pairs = [];
  const floorPairs = [];
  const floors = {};
  try {
    for (const concurrency of options.concurrencies) {
      for (const shape of options.shapes) {
        const window = options.window ?? 2 * concurrency;
        const common = { shape, concurrency, runs: options.runs[shape], window };
        const settings = { ...common, warmup: options.warmup, phaseTimeoutMs: options.phaseTimeoutMs };
        const raw = await phase({ ...settings, system: 'bullmq' }, url, admin);
        process.stdout.write(`${JSON.stringify(raw)}\n`);
        const flotilla = await phase({ ...settings, system: 'flotilla' }, url, admin);
        process.stdout.write(`${JSON.stringify(flotilla)}\n`);
        const ratios = ratioLine(raw, flotilla);
        process.stdout.write(`${JSON.stringify(ratios)}\n`);
        pairs.push({ raw, flotilla, ratios });
        for (const variant of FLOOR_SHAPES.includes(shape) ? options.floor : []) {
          if (!floors[shape]) {
            floors[shape] = await captureFloorTemplate(shape, url);
            const groups = floors[shape].groups.map(({ side, commands }) => ({
              side,
              commands: commands.map((command) => command[0]).join(' '),
              bytes: commands.flat().reduce((sum, arg) => sum + Buffer.byteLength(arg), 0),
            }));
            process.stdout.write(`${JSON.stringify({ bench: 'floor-template', shape, groups })}\n`);
          }
          const template = floorVariant(floors[shape], variant);
          const floor = {
            ...(await phase({ ...settings, system: 'floor', floor: template }, url, admin)),
            variant,
          };
          process.stdout.write(`${JSON.stringify(floor)}\n`);
          // flotillaOverFloor: Flotilla's throughput over its storage floor's, what our code costs.
          const floorRatios = {
            ...ratioLine(raw, floor),
            bench: 'floor-ratio',
            variant,
            flotillaOverFloor: ratio(flotilla.runsPerSecond, floor.runsPerSecond),
          };
          process.stdout.write(`${JSON.stringify(floorRatios)}\n`);
          floorPairs.push({ raw, flotilla: floor, ratios: floorRatios });
        }
      }
    }
    process.stdout.write(`\n${table(pairs)}\n\n`);
    if (floorPairs.length > 0)
      process.stdout.write(
        `The storage floor (raw BullMQ + a Flotilla run's writes, no Flotilla code) / raw:\n\n${table(floorPairs)}\n\n`,
      );
    return pairs;
  } finally {
    await admin.quit();
    await server?.stop();
  }
}

/** BENCH_FLOOR: unset (no floor), "1" (the writes as stored today) or a list of variants. */
function floorVariantsFromEnv(text) {
  if (!text) return [];
  if (text === '1') return ['as-stored'];
  const variants = text.split(',');
  for (const variant of variants)
    if (!FLOOR_VARIANTS.includes(variant))
      throw new Error(`BENCH_FLOOR lists "${variant}": expected 1 or some of ${FLOOR_VARIANTS.join(', ')}`);
  return variants;
}

/** The options from the environment (see `run.mjs` for the variables). */
export async function costOptionsFromEnv(shapes) {
  const { positiveInteger } = await import('./positive-integer.mjs');
  const concurrencies = (process.env.BENCH_CONCURRENCIES ?? '8,100').split(',').map((text) => {
    const value = Number(text);
    if (!Number.isSafeInteger(value) || value < 1)
      throw new Error(`BENCH_CONCURRENCIES must list whole numbers ≥ 1 (got "${text}")`);
    return value;
  });
  const only = process.env.BENCH_SHAPES?.split(',');
  return {
    shapes: only ? shapes.filter((shape) => only.includes(shape)) : shapes,
    concurrencies,
    runs: {
      'one-turn': positiveInteger('BENCH_RUNS', 1000),
      conversation: positiveInteger('BENCH_CONVERSATION_RUNS', 400),
      fanout: positiveInteger('BENCH_TREES', 100),
    },
    // Unset: twice the worker's concurrency, so the worker is kept busy while each run is
    // awaited about as long as it takes (a deep backlog would only measure waiting).
    window: process.env.BENCH_WINDOW ? positiveInteger('BENCH_WINDOW', 1) : undefined,
    warmup: positiveInteger('BENCH_WARMUP', 20),
    phaseTimeoutMs: positiveInteger('BENCH_TIMEOUT_MS', 120_000),
    redisUrl: process.env.BENCH_REDIS_URL,
    floor: floorVariantsFromEnv(process.env.BENCH_FLOOR),
  };
}
