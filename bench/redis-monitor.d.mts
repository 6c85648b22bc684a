// Types of `redis-monitor.mjs`, for the test suites that read MONITOR.

/** Where to connect: a `redis://` URL, or the host, port and credentials of an ioredis connection. */
export type MonitorTarget =
  | string
  | {
      host?: string | undefined;
      port?: number | undefined;
      username?: string | undefined;
      password?: string | undefined;
    };

export function openMonitor(
  target: MonitorTarget,
  onCommand: (args: string[], source: string) => void,
  timeoutMs?: number,
): Promise<{ close(): void }>;
export function parseMonitorLine(line: string): { args: string[]; source: string } | undefined;
