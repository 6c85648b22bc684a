/**
 * `npm run demo` after the build: the built `examples/dist/demo.js` as a process, with and
 * without Redis.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { REPO_ROOT } from './support/worker-process.js';

const redis = useRedis(import.meta.filename);

function demo(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['examples/dist/demo.js'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('the demo', () => {
  it('runs the research agent embedded and explains how to start Redis when none answers', async () => {
    // Port 1 is never a Redis: the demo must say so and still succeed.
    const result = await demo({ REDIS_URL: 'redis://127.0.0.1:1' });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'tool call: search_notes({"query":"How does a run survive a worker crash?"})',
    );
    expect(result.stdout).toContain('child agent "headline" answered');
    expect(result.stdout).toContain('"sources": [\n      "durable-replay",\n      "stalled-jobs"\n    ]');
    expect(result.stdout).toMatch(/Usage: 3 model calls, \d+ prompt \+ \d+ completion = \d+ tokens/);
    expect(result.stdout).toContain('2. Durable run: skipped, no Redis answered on redis://127.0.0.1:1.');
  });

  it('also runs the agent through a real worker and client when Redis answers, and prints the run record', async () => {
    const result = await demo({ REDIS_URL: redis.url, FLOTILLA_DEMO_PREFIX: redis.prefix });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const [, durable = ''] = result.stdout.split('2. Durable run');
    expect(durable).toContain('tool call: search_notes');
    expect(durable).toContain('Run record (client.getRun):');
    expect(durable).toContain('"status": "succeeded"');
  });
});
