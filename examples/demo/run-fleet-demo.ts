import { createClient, type RunRecord } from '@flotilla/runtime/client';
import { createWorker } from '@flotilla/runtime/worker';
import { pino } from 'pino';
import { agents, models } from '../research-fleet.js';
import { describeEvent } from './describe-event.js';
import { indentJson } from './run-embedded-demo.js';

/**
 * Key prefix (and BullMQ prefix) of the demo, so it never takes jobs of a real fleet.
 * @default FLOTILLA_DEMO_PREFIX, else 'flotilla-demo'
 */
export const DEMO_PREFIX = process.env.FLOTILLA_DEMO_PREFIX || 'flotilla-demo';

/**
 * Runs the same agent the durable way: a real worker and a client in this process, talking
 * through BullMQ and Redis at `redisUrl`. Prints the run's events as the client streams them,
 * then the run record. Ended runs are kept for an hour under {@link DEMO_PREFIX}.
 */
export async function runFleetDemo(
  redisUrl: string,
  question: string,
  print: (line: string) => void,
): Promise<RunRecord | undefined> {
  const worker = createWorker({
    agents,
    models,
    connection: redisUrl,
    prefix: DEMO_PREFIX,
    concurrency: 2,
    runRetentionSeconds: 3600,
    journalRetentionSeconds: 3600,
    logger: pino({ level: 'warn' }, pino.destination(2)),
  });
  const client = createClient({ connection: redisUrl, prefix: DEMO_PREFIX });
  try {
    await worker.waitUntilReady();
    const run = await client.submit('research', { question });
    print(`  submitted run ${run.id} to the "${worker.config.queueName}" queue`);
    for await (const event of run.events()) {
      const line = describeEvent(event);
      if (line !== undefined) print(`  ${line}`);
    }
    await run.result();
    const record = await client.getRun(run.id);
    print('');
    print('Run record (client.getRun):');
    print(indentJson(record));
    return record;
  } finally {
    await client.close();
    await worker.close();
  }
}
