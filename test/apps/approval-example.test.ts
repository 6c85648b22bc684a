/**
 * The approval example (`node examples/dist/approval.js`): an email agent's `send_email` call
 * waits for a person; approved with an edited subject it sends once, rejected it never sends.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { useRedis } from '../support/redis.js';
import { REPO_ROOT } from './support/worker-process.js';

const run = promisify(execFile);
const redis = useRedis(import.meta.filename);

describe('examples/approval.ts', () => {
  it('waits for approval, sends the approved email once with its edit, and never the rejected one', async () => {
    const { stdout } = await run(process.execPath, ['examples/dist/approval.js'], {
      cwd: REPO_ROOT,
      timeout: 60_000,
      env: { ...process.env, REDIS_URL: redis.url, FLOTILLA_PREFIX: redis.prefix },
    });
    const lines = stdout.trim().split('\n');
    expect(lines[0]).toBe('waiting for approval: tool "send_email" call call_send');
    expect(lines[1]).toBe('Done: sent to ada@example.com.');
    expect(lines[2]).toBe('outbox: ada@example.com "Launch day!"');
    expect(lines[3]).toContain(
      'Not sent: A person rejected this call of tool "send_email": not to the whole company',
    );
    expect(lines[4]).toBe('outbox: 1 email(s)');
  });
});
