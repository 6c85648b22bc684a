/**
 * The worker app's configuration, resolved in-process from an environment: every variable the
 * app or the runtime reads is refused with InvalidConfigError naming it. One process test in
 * test/apps/worker-app.test.ts proves `main.js` turns that error into exit 1.
 */
import { InvalidConfigError } from '@flotilla/runtime/worker';
import { describe, expect, it } from 'vitest';
import { resolveWorkerAppConfig } from './worker-app-config.js';

const AGENTS = './agents.js';

describe('resolveWorkerAppConfig', () => {
  it('resolves the app settings and the runtime configuration, with defaults', () => {
    const config = resolveWorkerAppConfig({ FLOTILLA_AGENTS: `${AGENTS}, other-package/agents` });
    expect(config).toMatchObject({
      agentModules: [AGENTS, 'other-package/agents'],
      healthPort: 9090,
      healthHost: '0.0.0.0',
      shutdownTimeoutMs: 30_000,
      runtime: { redisUrl: expect.stringMatching(/^redis:\/\//), workerConcurrency: expect.any(Number) },
    });
  });

  it('reads the app variables', () => {
    const config = resolveWorkerAppConfig({
      FLOTILLA_AGENTS: AGENTS,
      FLOTILLA_HEALTH_PORT: '0',
      FLOTILLA_HEALTH_HOST: '127.0.0.1',
      FLOTILLA_SHUTDOWN_TIMEOUT_MS: '5000',
      FLOTILLA_WORKER_CONCURRENCY: '3',
    });
    expect(config).toMatchObject({
      healthPort: 0,
      healthHost: '127.0.0.1',
      shutdownTimeoutMs: 5000,
      runtime: { workerConcurrency: 3 },
    });
  });

  it.each([
    ['FLOTILLA_WORKER_CONCURRENCY', 'zero'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['FLOTILLA_HEALTH_PORT', '99999'],
    ['FLOTILLA_AGENTS', ''],
    ['FLOTILLA_AGENTS', ' , '],
    ['FLOTILLA_SHUTDOWN_TIMEOUT_MS', '-1'],
  ])('refuses %s=%j with InvalidConfigError naming the variable', (variable, value) => {
    const error = catchError(() => resolveWorkerAppConfig({ FLOTILLA_AGENTS: AGENTS, [variable]: value }));
    expect(InvalidConfigError.is(error)).toBe(true);
    expect(error).toMatchObject({ variable });
    expect((error as Error).message).toMatch(
      new RegExp(`^${variable}=".*" is invalid: expected .+\\. Fix or unset ${variable}\\.$`),
    );
  });

  it('refuses a missing FLOTILLA_AGENTS', () => {
    const error = catchError(() => resolveWorkerAppConfig({}));
    expect(InvalidConfigError.is(error)).toBe(true);
    expect(error).toMatchObject({ variable: 'FLOTILLA_AGENTS' });
  });
});

function catchError(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('resolveWorkerAppConfig with empty variables', () => {
  it.each(['FLOTILLA_AGENTS', 'FLOTILLA_HEALTH_PORT', 'REDIS_URL'])(
    'refuses %s set but empty, naming it, instead of using the default',
    (variable) => {
      expect(() => resolveWorkerAppConfig({ FLOTILLA_AGENTS: './agents.js', [variable]: '' })).toThrow(
        expect.objectContaining({ name: 'InvalidConfigError', variable }),
      );
    },
  );
});
