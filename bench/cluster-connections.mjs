/**
 * Redis connections of one client awaiting many runs on a Redis Cluster (issue 15): a private
 * local 3-master cluster, one client submitting BENCH_RUNS (default 1000) runs of an agent no
 * worker serves and awaiting every `result()`, then `CLIENT LIST` on each master. Needs `tsx`:
 * `node --import tsx bench/cluster-connections.mjs`. Not a test: nothing here asserts.
 */
import { createClient } from '@flotilla/runtime/client';
import { Redis } from 'ioredis';
import { startRedisCluster } from '../test/support/redis-cluster.ts';
import { positiveInteger } from './positive-integer.mjs';

const runs = positiveInteger('BENCH_RUNS', 1000);
const cluster = await startRedisCluster();
const masters = cluster.nodes.map((node) => new Redis(node.port, '127.0.0.1'));
const count = async () =>
  Promise.all(
    masters.map(
      async (node) =>
        ((await node.client('LIST')) ?? '').split('\n').filter((line) => line.trim()).length - 1,
    ),
  );
try {
  const idle = await count();
  const client = createClient({
    connection: cluster.url,
    prefix: 'bench-connections',
    requestTimeoutMs: 60_000,
  });
  const handles = await Promise.all(
    Array.from({ length: runs }, () => client.submit('nobody-serves-this', {})),
  );
  const waits = handles.map((handle) => handle.result().catch((error) => error));
  const started = performance.now();
  let awaiting = await count();
  // Until every wait is in place (or 30 s): connections are opened as the waits start.
  for (let tries = 0; tries < 30; tries++) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await count();
    if (now.join() === awaiting.join()) break;
    awaiting = now;
  }
  const settleSeconds = (performance.now() - started) / 1000;
  await client.close();
  const failed = (await Promise.all(waits)).filter(
    (outcome) => outcome instanceof Error && !/closed|ended/i.test(outcome.message),
  );
  console.log(
    JSON.stringify({
      bench: 'cluster-connections',
      runs,
      idlePerMaster: idle,
      awaitingPerMaster: awaiting,
      addedTotal: awaiting.reduce((sum, n) => sum + n, 0) - idle.reduce((sum, n) => sum + n, 0),
      settleSeconds: Number(settleSeconds.toFixed(1)),
      failedBeforeClose: failed.length,
    }),
  );
} finally {
  for (const node of masters) node.disconnect();
  await cluster.stop();
}
