import type { FlotillaWorker } from '@flotilla/runtime/worker';
import type { Redis } from 'ioredis';

/**
 * The end of every worker program a {@link WorkerProcesses} starts: waits until `worker` listens,
 * prints `ready` (what `start()` waits for), and on SIGTERM prints `stopping`, closes the worker
 * (which waits for its active runs) and the fixtures' `redis` connection, and exits with code 0
 * (what a graceful shutdown test asserts).
 */
export async function serveWorkerProcess(worker: FlotillaWorker, redis: Redis): Promise<void> {
  await worker.waitUntilReady();
  process.stdout.write('ready\n');
  process.on('SIGTERM', async () => {
    process.stdout.write('stopping\n');
    await worker.close();
    await redis.quit();
    process.exit(0);
  });
}
