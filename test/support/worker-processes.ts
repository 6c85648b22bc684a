/**
 * Real worker processes for the cross-process suites (crash recovery, resources across workers,
 * trees, the MCP fleet): each is a worker program run with `node --import tsx` that prints
 * `ready` once it listens and closes on SIGTERM (see `serve-worker-process.ts`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { basename } from 'node:path';

/** The worker processes one test file started from one worker program. */
export class WorkerProcesses {
  /** Every process started since the last {@link WorkerProcesses.stop}, live or not. */
  readonly processes: ChildProcess[] = [];
  readonly #program: string;
  readonly #baseEnv: Record<string, string>;

  /**
   * @param program absolute path of the worker program (a `.ts` file run with `node --import tsx`)
   * @param baseEnv environment every process gets, on top of this process's own and `LOG_LEVEL`
   *   (@default `process.env.LOG_LEVEL`, else `silent`); typically `REDIS_URL` and `FLOTILLA_PREFIX`
   */
  constructor(program: string, baseEnv: Record<string, string> = {}) {
    this.#program = program;
    this.#baseEnv = baseEnv;
  }

  /**
   * Starts one process with `env` on top of the base environment. Resolves with it once it
   * printed `ready`; rejects when it exits before that.
   */
  start(env: Record<string, string> = {}): Promise<ChildProcess> {
    const child = spawn(process.execPath, ['--import', 'tsx', this.#program], {
      env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', ...this.#baseEnv, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    this.processes.push(child);
    return new Promise((resolve, reject) => {
      child.once('exit', (code) =>
        reject(new Error(`worker ${basename(this.#program)} exited early with ${code}`)),
      );
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('ready')) resolve(child);
      });
    });
  }

  /**
   * SIGKILLs the process with id `pid` (a crash: no graceful close) and waits until it exited.
   * @throws Error when `pid` is not one of the processes started here.
   */
  async kill(pid: number): Promise<void> {
    const victim = this.processes.find((child) => child.pid === pid);
    if (!victim) throw new Error(`process ${pid} is not one of the test's workers`);
    const exited = once(victim, 'exit');
    victim.kill('SIGKILL');
    await exited;
  }

  /**
   * SIGTERMs the process with id `pid`: `stopping` resolves once it printed `stopping` (its
   * SIGTERM handler runs), `exited` with its exit code.
   * @throws Error when `pid` is not one of the processes started here.
   */
  terminate(pid: number): { stopping: Promise<void>; exited: Promise<number | null> } {
    const child = this.processes.find((candidate) => candidate.pid === pid);
    if (!child) throw new Error(`process ${pid} is not one of the test's workers`);
    const exited = once(child, 'exit').then(([code]) => code as number | null);
    const stopping = new Promise<void>((resolve) => {
      child.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('stopping')) resolve();
      });
    });
    child.kill('SIGTERM');
    return { stopping, exited };
  }

  /** SIGTERMs every live process, waits until they exited, forgets them all, and returns the live ones' exit codes. */
  async stop(): Promise<(number | null)[]> {
    const live = this.processes
      .splice(0)
      .filter((child) => child.exitCode === null && child.signalCode === null);
    return Promise.all(
      live.map(async (child) => {
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        const [code] = await exited;
        return code as number | null;
      }),
    );
  }
}
