import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, truncateSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function launch(args) {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (/Ready to accept/.test(output)) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${output}`)));
  });
}

/**
 * A private `redis-server` for a bench (on PATH), in a temporary directory: `appendfsync` turns
 * the append-only file on (`always`, `everysec`); without it nothing persists. `crash()`
 * SIGKILLs it and starts it again on the same port and directory (it reloads its AOF); with
 * `loseLastMs` the AOF is first cut back to its size that long before, as a machine crash
 * loses what was written but not yet fsynced (a process crash alone loses nothing: the
 * kernel still holds the written pages).
 * @param {{ appendfsync?: 'always' | 'everysec' }} [options]
 */
export async function startPrivateRedis(options = {}) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'flotilla-bench-redis-'));
  const persistence = options.appendfsync
    ? ['--appendonly', 'yes', '--appendfsync', options.appendfsync]
    : ['--appendonly', 'no'];
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, ...persistence];
  let child = await launch(args);
  /** [time, size] of the AOF's incremental file, sampled every 20 ms. */
  const sizes = [];
  const sampler = setInterval(() => {
    const file = incrementalAof(dir);
    if (file) sizes.push([Date.now(), statSync(file).size]);
  }, 20);
  const exited = (process) => new Promise((resolve) => process.once('exit', resolve));
  return {
    url: `redis://127.0.0.1:${port}`,
    /** @param {{ loseLastMs?: number }} [crash] */
    async crash({ loseLastMs = 0 } = {}) {
      const keptUpTo = Date.now() - loseLastMs;
      const gone = exited(child);
      child.kill('SIGKILL');
      await gone;
      const file = incrementalAof(dir);
      const kept = sizes.filter(([at]) => at <= keptUpTo).at(-1);
      let lostBytes = 0;
      if (loseLastMs > 0 && file && kept) {
        lostBytes = statSync(file).size - kept[1];
        truncateSync(file, kept[1]);
      }
      child = await launch(args);
      return { lostBytes };
    },
    async stop() {
      clearInterval(sampler);
      const gone = exited(child);
      child.kill('SIGTERM');
      await gone;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The AOF file Redis 7 appends to (`appendonlydir/*.incr.aof`, the newest). */
function incrementalAof(dir) {
  try {
    const names = readdirSync(join(dir, 'appendonlydir')).filter((name) => name.endsWith('.incr.aof'));
    const newest = names.sort((a, b) => Number(a.split('.').at(-3)) - Number(b.split('.').at(-3))).at(-1);
    return newest && join(dir, 'appendonlydir', newest);
  } catch {
    return undefined;
  }
}
