/**
 * Runs the real worker app (the built `apps/worker/dist/main.js`) as a child process, with
 * `--import tsx` so it can load the TypeScript fixture module next to the built examples.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';

/** The repository root (the worker resolves relative agent module paths from its cwd). */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const WORKER_MAIN = 'apps/worker/dist/main.js';

/** The examples module plus the fixture module, as `FLOTILLA_AGENTS` names them. */
export const APP_AGENT_MODULES = './examples/dist/research-fleet.js,./test/apps/fixtures/app-agents.ts';

/** How a worker process ended, with everything it printed. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** A started worker process. */
export interface SpawnedWorker {
  readonly child: ChildProcess;
  /** Emits `log` with each JSON line the worker prints on stdout. */
  readonly logs: EventEmitter;
  /** Resolves when the process exits. */
  readonly exited: Promise<ProcessExit>;
}

/** A worker process that reported `worker ready`. */
export interface WorkerProcess extends SpawnedWorker {
  /** The port of `/healthz` and `/metrics`. */
  readonly healthPort: number;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 20 s, so a hung worker cannot hang the suite). */
  stop(): Promise<ProcessExit>;
}

/** Starts the worker app with `env` over the test process's environment. */
export function spawnWorker(env: Record<string, string>): SpawnedWorker {
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER_MAIN], {
    cwd: REPO_ROOT,
    env: { ...process.env, FLOTILLA_HEALTH_HOST: '127.0.0.1', FLOTILLA_HEALTH_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs = new EventEmitter();
  let stdout = '';
  let stderr = '';
  let partial = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const lines = (partial + chunk.toString()).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) emitJson(logs, line);
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<ProcessExit>((resolve) => {
    // 'close' waits for the pipes, so the last lines are in.
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
  return { child, logs, exited };
}

/**
 * Starts the worker app and waits until it logs `worker ready`.
 * @throws Error with the process output when it exits first or is not ready within 30 s
 */
export async function startWorker(env: Record<string, string>): Promise<WorkerProcess> {
  const spawned = spawnWorker(env);
  const healthPort = await new Promise<number>((resolve, reject) => {
    let port: number | undefined;
    spawned.logs.on('log', (line: Record<string, unknown>) => {
      if (line.msg === 'health endpoint listening') port = line.port as number;
      if (line.msg === 'worker ready' && port !== undefined) resolve(port);
    });
    spawned.exited.then((exit) =>
      reject(new Error(`worker exited before it was ready: ${JSON.stringify(exit)}`)),
    );
    setTimeout(() => reject(new Error('worker not ready within 30 s')), 30_000).unref();
  });
  const { child, exited } = spawned;
  return {
    ...spawned,
    healthPort,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
  };
}

function emitJson(logs: EventEmitter, line: string): void {
  try {
    logs.emit('log', JSON.parse(line));
  } catch {
    // not a log line
  }
}
