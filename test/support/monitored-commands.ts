import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { openMonitor } from '../../bench/redis-monitor.mjs';

/** A command MONITOR reported: its arguments (name first) and its source (`lua` inside a script). */
export interface MonitoredCommand {
  args: string[];
  source: string;
}

/**
 * The commands Redis ran while `work` ran, for the ones `keep` accepts, each reported once `work`
 * is done: MONITOR reports commands in the order Redis ran them, so once it reports a marker sent
 * after the work's replies, it has reported every command of the work (no fixed wait). MONITOR is
 * read on a socket of its own (`bench/redis-monitor.mjs`), with each argument as it was sent.
 * @throws Error when MONITOR does not report the marker within `timeoutMs` (default 10000)
 */
export async function monitoredCommands(
  redis: Redis,
  keep: (command: MonitoredCommand) => boolean,
  work: () => Promise<void>,
  timeoutMs = 10_000,
): Promise<MonitoredCommand[]> {
  const kept: MonitoredCommand[] = [];
  const marker = `monitor-marker:${randomUUID()}`;
  let markerSeen!: () => void;
  const reported = new Promise<void>((resolve) => {
    markerSeen = resolve;
  });
  const { host, port, username, password } = redis.options;
  const monitor = await openMonitor({ host, port, username, password }, (args, source) => {
    if (args.includes(marker)) markerSeen();
    else if (keep({ args, source })) kept.push({ args, source });
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    await work();
    await redis.exists(marker);
    await Promise.race([
      reported,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new Error(`monitoredCommands: MONITOR did not report the marker within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
    monitor.close();
  }
  return kept;
}
