/**
 * Runs the real scheduler app (the built `apps/scheduler/dist/main.js`) as a child process and
 * keeps every line it prints, for suites that stop Redis under it or send it signals.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { REPO_ROOT } from './worker-process.js';

/** A started scheduler process. */
export interface SchedulerProcess {
  readonly child: ChildProcess;
  /** e.g. `http://127.0.0.1:41234` */
  readonly url: string;
  readonly port: number;
  /** Every stdout line so far (pino JSON). */
  readonly stdout: string[];
  /** Every stderr line so far (none expected). */
  readonly stderr: string[];
  /** Resolves with the exit code (or signal) when the process exits. */
  readonly exited: Promise<number | NodeJS.Signals | null>;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 20 s, so a hung scheduler cannot hang the suite). */
  stop(): Promise<number | NodeJS.Signals | null>;
}

/**
 * Starts the scheduler with `env` over the test process's environment (port 0 on 127.0.0.1)
 * and waits until it logs `scheduler listening`.
 * @throws Error with its output when it exits first or does not listen within 30 s
 */
export async function startSchedulerProcess(env: Record<string, string>): Promise<SchedulerProcess> {
  const child = spawn(process.execPath, ['apps/scheduler/dist/main.js'], {
    cwd: REPO_ROOT,
    env: { ...process.env, FLOTILLA_SCHEDULER_PORT: '0', FLOTILLA_SCHEDULER_HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const stdout: string[] = [];
  const stderr: string[] = [];
  collectLines(child.stdout, stdout);
  collectLines(child.stderr, stderr);
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) =>
    child.once('close', (code, signal) => resolve(code ?? signal)),
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('scheduler not listening within 30 s')), 30_000);
    child.stdout?.on('data', () => {
      const line = stdout.find((text) => text.includes('"scheduler listening"'));
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { port: number }).port);
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`scheduler exited (${code}) before listening: ${[...stdout, ...stderr].join('\n')}`));
    });
  });
  return {
    child,
    url: `http://127.0.0.1:${port}`,
    port,
    stdout,
    stderr,
    exited,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

function collectLines(stream: NodeJS.ReadableStream | null, into: string[]): void {
  let partial = '';
  stream?.on('data', (chunk: Buffer) => {
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    into.push(...lines.filter((line) => line.trim() !== ''));
  });
}
