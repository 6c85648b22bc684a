/**
 * Starts a private `redis-server` process on a free loopback port, for tests that need a Redis
 * of their own: restart and AOF tests, or machines where no `REDIS_URL` is given.
 *
 * A probed free port can be taken by another process (a parallel test file, another suite on
 * the machine) before `redis-server` binds it, so a start that fails with "Address already in
 * use" is retried on a new port.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisServerOptions {
  /** Port to listen on; a start on a given port is not retried elsewhere. @default a free port picked by the OS */
  port?: number;
  /** Turn on the append-only file so data survives a restart. @default false */
  appendOnly?: boolean;
  /** When the append-only file is fsynced (`everysec` may lose the last second at a crash). @default 'always' */
  appendfsync?: 'always' | 'everysec' | 'no';
  /** Data directory. @default a fresh temporary directory, removed by `stop()` */
  dir?: string;
  /** Binary to run. @default `redis-server` from PATH */
  binary?: string;
  /** Picks the port to try when `port` is not given (again after each "address already in use"). @default {@link freePort} */
  pickPort?: () => Promise<number>;
  /** Require this password (`requirepass`); the url then carries it. @default none */
  password?: string;
  /** Serve TLS only, on the port, with these PEM files; the url is then `rediss://`. @default plain TCP */
  tls?: { certFile: string; keyFile: string; caFile: string };
  /**
   * Start a Redis Cluster node (`cluster-enabled yes`, its own `nodes.conf` in `dir`) with its bus
   * on a free port picked like the client port: the default bus port, port + 10000, can fall
   * outside 1..65535 for the high ports the OS hands out. @default false
   */
  clusterNode?: boolean;
}

export interface RedisServerProcess {
  url: string;
  port: number;
  /** The cluster bus port of a {@link RedisServerOptions.clusterNode}, else undefined. */
  clusterPort: number | undefined;
  dir: string;
  /** Kills the server with SIGKILL, as a crash would, and starts it again on the same port and dir. */
  restart(): Promise<void>;
  /** Sends `signal` to the server process: `SIGSTOP` pauses it (a frozen Redis), `SIGCONT` resumes it. */
  signal(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

/** Whether a `redis-server` binary can be run on this machine. */
export function hasRedisServerBinary(binary = 'redis-server'): boolean {
  const probe = spawnSync(binary, ['--version'], { stdio: 'ignore' });
  return probe.status === 0;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolve(address.port);
        else reject(new Error('could not read the port of a probe server'));
      });
    });
  });
}

/** How many free ports a start tries before it gives up (each failed only if taken meanwhile). */
const PORT_ATTEMPTS = 10;

/** `redis-server` could not bind its port: another process holds it. */
class PortTakenError extends Error {
  override readonly name = 'PortTakenError';
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServerProcess> {
  const binary = options.binary ?? 'redis-server';
  const ownsDir = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'flotilla-redis-'));
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await (options.pickPort ?? freePort)());
    try {
      return await startOn(binary, port, dir, ownsDir, options);
    } catch (error) {
      const retry = error instanceof PortTakenError && options.port === undefined && attempt < PORT_ATTEMPTS;
      if (!retry) {
        if (ownsDir) rmSync(dir, { recursive: true, force: true });
        throw error;
      }
    }
  }
}

async function startOn(
  binary: string,
  port: number,
  dir: string,
  ownsDir: boolean,
  options: RedisServerOptions,
): Promise<RedisServerProcess> {
  const appendOnly = options.appendOnly ?? false;
  const appendfsync = options.appendfsync ?? 'always';
  const { password, tls } = options;
  // Picked per attempt: a bus port taken meanwhile fails the start like a taken client port.
  const clusterPort = options.clusterNode ? await freePort() : undefined;
  const listen = tls
    ? [
        '--port',
        '0',
        '--tls-port',
        String(port),
        '--tls-cert-file',
        tls.certFile,
        '--tls-key-file',
        tls.keyFile,
      ]
    : ['--port', String(port)];
  if (tls) listen.push('--tls-ca-cert-file', tls.caFile, '--tls-auth-clients', 'no');
  if (password !== undefined) listen.push('--requirepass', password);
  if (clusterPort !== undefined)
    listen.push(
      '--cluster-enabled',
      'yes',
      '--cluster-port',
      String(clusterPort),
      '--cluster-config-file',
      'nodes.conf',
    );
  const args = [
    ...listen,
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    appendOnly ? 'yes' : 'no',
    '--appendfsync',
    appendfsync,
    '--dir',
    dir,
    '--maxmemory-policy',
    'noeviction',
  ];
  let child = await launch(binary, args, port);
  const credentials = password === undefined ? '' : `:${encodeURIComponent(password)}@`;
  return {
    url: `${tls ? 'rediss' : 'redis'}://${credentials}127.0.0.1:${port}`,
    port,
    clusterPort,
    dir,
    async restart() {
      await kill(child, 'SIGKILL');
      child = await launch(binary, args, port);
    },
    signal(signal) {
      child.kill(signal);
    },
    async stop() {
      child.kill('SIGCONT');
      await kill(child, 'SIGTERM');
      if (ownsDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function launch(binary: string, args: string[], port: number): Promise<ChildProcess> {
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`redis-server on port ${port} did not start:\n${output}`)),
      10_000,
    );
    const onData = () => {
      if (/Ready to accept connections/i.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    // 'close', not 'exit': it waits for the pipes, so the output holds the reason.
    child.once('close', (code) => {
      clearTimeout(timer);
      const message = `redis-server exited with code ${code} before it was ready:\n${output}`;
      reject(/address already in use/i.test(output) ? new PortTakenError(message) : new Error(message));
    });
  });
  child.removeAllListeners('close');
  return child;
}

async function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.kill(signal);
  });
}
