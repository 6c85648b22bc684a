/**
 * What awaiting runs costs a client and Redis, by how many runs one client awaits at once (issue
 * 15, round 11). For each count N: N runs, each awaited by `result()` on one client, write
 * BENCH_WAIT_WRITES event writes each (as a worker's steps do) and then end, all written by the
 * real run records and event sink in a process of their own, one write at a time with the runs'
 * writes interleaved (no worker, no model: only the waiting is measured). Prints, per awaited run, the client's CPU, Redis' CPU and the Redis
 * commands of the whole pass (writes included: the same in every build), as JSON lines and a
 * table. Run it against two builds to compare their waits. Not a test: nothing here asserts.
 *
 * Usage, after `npm run build`: `node bench/result-waits.mjs`. Env: BENCH_WAIT_COUNTS (default
 * "10,100,1000"), BENCH_WAIT_WRITES (default 3), BENCH_WAIT_PASSES (default 3).
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createClient } from '@flotilla/runtime/client';
import { RedisRunRecords } from '@flotilla/runtime/internals';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { positiveInteger } from './positive-integer.mjs';
import { startPrivateRedis } from './private-redis.mjs';
import { redisCostPerRun, redisSnapshot, round } from './redis-cost.mjs';
import { emitGeneration, endRun } from './written-runs.mjs';

if (process.argv[2] === 'writer') await serveWrites();
else await measure();

/** The writer process: creates runs, then writes their events and ends on request (IPC). */
async function serveWrites() {
  let redis;
  let records;
  let prefix;
  process.on('message', (message) =>
    handle(message).catch((error) => {
      // Said to the parent, which stops: it waits for no answer that will not come.
      process.send({ failed: String(error?.stack ?? error) });
    }),
  );
  async function handle(message) {
    if (message.open) {
      ({ prefix } = message.open);
      redis = new Redis(message.open.url);
      records = new RedisRunRecords({ redis, prefix });
      process.send({ opened: true });
    } else if (message.create) {
      const runIds = Array.from({ length: message.create }, () => `run-${randomUUID()}`);
      for (const runId of runIds) {
        await records.create({ runId, agentId: 'writer' });
        await records.start({ runId, agentId: 'writer' });
      }
      process.send({ created: runIds });
    } else if (message.write) {
      const { runIds, writes } = message.write;
      // One write at a time, the runs' writes interleaved, as runs on their own workers make them.
      for (let generation = 0; generation < writes; generation++)
        for (const runId of runIds) await emitGeneration(redis, prefix, runId, generation);
      for (const runId of runIds) await endRun(records, runId, runId);
      process.send({ written: true });
    } else if (message.close) {
      redis.disconnect();
      process.disconnect();
    }
  }
}

async function measure() {
  const counts = (process.env.BENCH_WAIT_COUNTS ?? '10,100,1000').split(',').map(Number);
  const writes = positiveInteger('BENCH_WAIT_WRITES', 3);
  const passes = positiveInteger('BENCH_WAIT_PASSES', 3);
  const server = await startPrivateRedis();
  const admin = new Redis(server.url);
  const writer = fork(new URL(import.meta.url), ['writer'], { stdio: 'inherit' });
  // The writer's answer, or its failure (or exit) as an error: no wait outlives the writer.
  const ask = (message, answer) =>
    new Promise((resolve, reject) => {
      const done = () => {
        writer.off('message', onMessage);
        writer.off('exit', onExit);
      };
      const onMessage = (reply) => {
        if (!(answer in reply) && !('failed' in reply)) return;
        done();
        if ('failed' in reply) reject(new Error(`the writer failed: ${reply.failed}`));
        else resolve(reply[answer]);
      };
      const onExit = (code) => {
        done();
        reject(new Error(`the writer exited (${code}) before answering`));
      };
      writer.on('message', onMessage);
      writer.on('exit', onExit);
      writer.send(message);
    });
  const prefix = `bench-waits:${randomUUID().slice(0, 8)}`;
  await ask({ open: { url: server.url, prefix } }, 'opened');
  const client = createClient({ connection: server.url, prefix, logger: pino({ level: 'silent' }) });
  const rows = [];
  try {
    for (const count of counts) {
      for (let pass = 0; pass < passes; pass++) {
        const runIds = await ask({ create: count }, 'created');
        const results = Promise.all(runIds.map((runId) => client.run(runId).result()));
        // Awaited below; rejected by the client's close should the writer fail first.
        results.catch(() => undefined);
        // The waits get in place (a blocked read, or subscriptions) before the runs write.
        await new Promise((resolve) => setTimeout(resolve, 200 + count));
        const cpu = process.cpuUsage();
        const before = await redisSnapshot(admin);
        await ask({ write: { runIds, writes } }, 'written');
        await results;
        const { user, system } = process.cpuUsage(cpu);
        const redis = redisCostPerRun(before, await redisSnapshot(admin), count);
        const row = {
          bench: 'result-waits',
          awaited: count,
          writesPerRun: writes,
          clientUsPerRun: round((user + system) / count, 1),
          redisUsPerRun: round(redis.cpuMs * 1000, 1),
          redisCommandsPerRun: redis.commands,
          topCommands: redis.topCommands,
        };
        rows.push(row);
        process.stdout.write(`${JSON.stringify(row)}\n`);
      }
    }
  } finally {
    await client.close();
    writer.send({ close: true });
    admin.disconnect();
    await server.stop();
  }
  process.stdout.write(
    '\n| runs awaited at once | client CPU µs per run | Redis CPU µs per run | Redis commands per run |\n',
  );
  process.stdout.write('| --- | --- | --- | --- |\n');
  for (const count of counts) {
    const of = rows.filter((row) => row.awaited === count);
    const range = (key) => {
      const values = of.map((row) => row[key]);
      return `${Math.min(...values)}–${Math.max(...values)}`;
    };
    process.stdout.write(
      `| ${count} | ${range('clientUsPerRun')} | ${range('redisUsPerRun')} | ${range('redisCommandsPerRun')} |\n`,
    );
  }
}
