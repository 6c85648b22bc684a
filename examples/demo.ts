/**
 * THE DEMO (`npm run demo`). Runs the research agent twice:
 * 1. embedded, in this process, with no Redis: the scripted model calls the `search_notes`
 *    tool, answers from the notes, and a child agent writes a headline;
 * 2. when Redis answers on REDIS_URL (default redis://127.0.0.1:6379), as a durable run: a real
 *    worker and a client in this process, through BullMQ.
 * Exits 0 when every part that could run succeeded.
 */

import { redisAnswers } from './demo/redis-answers.js';
import { runEmbeddedDemo } from './demo/run-embedded-demo.js';
import { DEMO_PREFIX, runFleetDemo } from './demo/run-fleet-demo.js';

const QUESTION = 'How does a run survive a worker crash?';

async function main(): Promise<void> {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  print('Flotilla demo: the research agent (examples/agents/research-agent.ts)');
  print('');
  print('1. Embedded: in this process, no Redis, scripted model (no API key)');
  print(`  question: ${QUESTION}`);
  await runEmbeddedDemo(QUESTION, print);

  const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  print('');
  if (!(await redisAnswers(redisUrl))) {
    print(`2. Durable run: skipped, no Redis answered on ${redisUrl}.`);
    print('  Start one (docker compose up -d redis, or apt-get install redis-server) or set REDIS_URL,');
    print('  then run `npm run demo` again to see the same agent run as a BullMQ job.');
    return;
  }
  print(
    `2. Durable run: a worker and a client in this process, Redis at ${redisUrl} (prefix "${DEMO_PREFIX}")`,
  );
  const record = await runFleetDemo(redisUrl, QUESTION, print);
  if (record?.status !== 'succeeded')
    throw new Error(`The durable run ended ${record?.status ?? 'unknown'}.`);
}

main().catch((error: unknown) => {
  process.stderr.write(
    `The demo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
