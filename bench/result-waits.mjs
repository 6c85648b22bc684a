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
import { emptyUsage } from '@flotilla/ir';
import { createClient } from '@flotilla/runtime/client';
import { RedisRunRecords } from '@flotilla/runtime/internals';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { positiveInteger } from './positive-integer.mjs';
import { startPrivateRedis } from './private-redis.mjs';
import { redisCostPerRun, redisSnapshot, round } from './redis-cost.mjs';
import { emitGeneration } from './written-runs.mjs';

if (process.argv[2] === 'writer') await serveWrites();
else await measure();

/** The writer process: creates runs, then writes their events and ends on request (IPC). */
async function serveWrites() {
  let redis;
  let records;
  let prefix;
  process.on('message', async (message) => {
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
      for (const runId of runIds)
        await records.finish(runId, 'root', {
          status: 'succeeded',
          output: runId,
          usage: emptyUsage(),
          modelCalls: 0,
        });
      process.send({ written: true });
    } else if (message.close) {
      redis.disconnect();
      process.disconnect();
    }
  });
}

async function measure() {
  const counts = (process.env.BENCH_WAIT_COUNTS ?? '10,100,1000').split(',').map(Number);
  const writes = positiveInteger('BENCH_WAIT_WRITES', 3);
  const passes = positiveInteger('BENCH_WAIT_PASSES', 3);
  const server = await startPrivateRedis();
  const admin = new Redis(server.url);
  const writer = fork(new URL(import.meta.url), ['writer'], { stdio: 'inherit' });
  const ask = (message, answer) =>
    new Promise((resolve) => {
      const onMessage = (reply) => {
        if (!(answer in reply)) return;
        writer.off('message', onMessage);
        resolve(reply[answer]);
      };
      writer.on('message', onMessage);
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
        const results = runIds.map((runId) => client.run(runId).result());
        // The waits get in place (a blocked read, or subscriptions) before the runs write.
        await new Promise((resolve) => setTimeout(resolve, 200 + count));
        const cpu = process.cpuUsage();
        const before = await redisSnapshot(admin);
        await ask({ write: { runIds, writes } }, 'written');
        await Promise.all(results);
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
