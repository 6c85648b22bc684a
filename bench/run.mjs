/**
 * `npm run bench`: Flotilla next to raw BullMQ, side by side in one run (`cost.mjs`): a one-turn
 * run, a conversational run (2 model turns + a tool, conversation stored) and a 1→10 fan-out
 * tree, each at worker concurrency 8 and 100, with throughput, CPU ms per run of the worker, the
 * client and Redis, and Redis commands per run; then the bytes a finished one-turn run keeps in
 * Redis (`run-storage.mjs`). Prints JSON lines and a Markdown table. Not a test: nothing here
 * asserts a timing. About two minutes on the project's 2-core machine.
 *
 * Env: BENCH_SHAPES (a comma-separated subset of one-turn,conversation,fanout; default all),
 * BENCH_CONCURRENCIES (default "8,100"), BENCH_RUNS (one-turn runs per phase, default 1000),
 * BENCH_CONVERSATION_RUNS (default 400), BENCH_TREES (default 100), BENCH_WINDOW (runs the client
 * awaits at once, default twice the concurrency), BENCH_WARMUP (runs each phase runs before it
 * measures, at most the phase's own count; default 20), BENCH_TIMEOUT_MS (per phase, default 120000), BENCH_REDIS_URL
 * (default: a private `redis-server` on PATH, so Redis' CPU and commands are the bench's alone),
 * BENCH_WORKER_NODE_ARGS (node flags for the worker processes instead of the bench's own, e.g.
 * "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile the worker alone), BENCH_FLOOR ("1", or a
 * comma-separated list of storage-floor.mjs' variants: after each pair, the same shape on raw
 * BullMQ that also sends the writes a Flotilla run makes, with no Flotilla code; single Redis only),
 * REDIS_URL (the storage measurement's Redis, default redis://127.0.0.1:6379).
 */
import { benchCosts, costOptionsFromEnv } from './cost.mjs';
import { SHAPES } from './cost-shapes.mjs';
import { positiveInteger } from './positive-integer.mjs';
import { measureRunStorage } from './run-storage.mjs';

const pairs = await benchCosts(await costOptionsFromEnv(SHAPES));
const url = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
const storageRuns = positiveInteger('BENCH_STORAGE_RUNS', 200);
const storage = await measureRunStorage({ url, runs: storageRuns, concurrency: 8 });
process.stdout.write(`${JSON.stringify({ bench: 'storage', runs: storageRuns, ...storage })}\n`);
if (pairs.length === 0) process.exitCode = 1;
