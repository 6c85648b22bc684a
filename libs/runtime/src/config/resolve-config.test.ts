import { describe, expect, it } from 'vitest';
import { InvalidConfigError } from './invalid-config-error.js';
import { resolveConfig } from './resolve-config.js';

describe('resolveConfig', () => {
  it('fills every field with a default that works on a developer machine', () => {
    expect(resolveConfig({}, {})).toEqual({
      redisUrl: 'redis://127.0.0.1:6379',
      prefix: 'flotilla',
      queueName: 'agents',
      workerConcurrency: 4,
      logLevel: 'info',
      maxPayloadBytes: 1_048_576,
      maxJsonDepth: 128,
      eventStreamMaxLength: 10_000,
      runRetentionSeconds: 604_800,
      journalRetentionSeconds: 604_800,
      conversationRetentionSeconds: 0,
      conversationChunkBytes: 16_384,
      conversationRecheckMs: 10_000,
      lockDurationMs: 5000,
      slotHoldMs: 250,
      stalledIntervalMs: 2500,
      maxStalledCount: 3,
      maxChildrenPerRun: 1000,
      requestTimeoutMs: 10_000,
      versioning: 'unpinned',
      compatibleWith: [],
    });
  });

  it('reads environment variables', () => {
    const config = resolveConfig(
      {},
      {
        REDIS_URL: 'redis://cache:6380/2',
        FLOTILLA_PREFIX: 'acme',
        FLOTILLA_WORKER_CONCURRENCY: '16',
        LOG_LEVEL: 'DEBUG',
      },
    );
    expect(config).toMatchObject({
      redisUrl: 'redis://cache:6380/2',
      prefix: 'acme',
      workerConcurrency: 16,
      logLevel: 'debug',
    });
  });

  it('reads the slot hold, 0 included (hand a job fetched into a full worker back at once)', () => {
    expect(resolveConfig({}, { FLOTILLA_SLOT_HOLD_MS: '0' }).slotHoldMs).toBe(0);
    expect(resolveConfig({}, { FLOTILLA_SLOT_HOLD_MS: '60000' }).slotHoldMs).toBe(60_000);
  });

  it('reads the versioning mode and the compatible builds (comma-separated, blanks dropped)', () => {
    const config = resolveConfig(
      {},
      { FLOTILLA_VERSIONING: 'Pinned', FLOTILLA_BUILD_ID: 'v3', FLOTILLA_COMPATIBLE_WITH: ' v1, v2+abc ,,' },
    );
    expect(config).toMatchObject({ versioning: 'pinned', buildId: 'v3', compatibleWith: ['v1', 'v2+abc'] });
  });

  it('lets an explicit option win over the environment, even over a bad variable', () => {
    expect(
      resolveConfig({ workerConcurrency: 2 }, { FLOTILLA_WORKER_CONCURRENCY: 'lots' }).workerConcurrency,
    ).toBe(2);
  });

  it.each([
    ['FLOTILLA_WORKER_CONCURRENCY', '0'],
    ['FLOTILLA_WORKER_CONCURRENCY', '2.5'],
    ['REDIS_URL', 'http://localhost:6379'],
    ['LOG_LEVEL', 'loud'],
    ['FLOTILLA_PREFIX', 'has space'],
    ['FLOTILLA_MAX_PAYLOAD_BYTES', '-1'],
    ['FLOTILLA_VERSIONING', 'sticky'],
    ['FLOTILLA_COMPATIBLE_WITH', 'v1,has space'],
    ['FLOTILLA_COMPATIBLE_WITH', 'v1,v1'],
    ['FLOTILLA_COMPATIBLE_WITH', Array.from({ length: 33 }, (_, n) => `v${n}`).join(',')],
    ['FLOTILLA_CONVERSATION_CHUNK_BYTES', '2000000'],
    ['FLOTILLA_SLOT_HOLD_MS', '60001'],
    ['FLOTILLA_SLOT_HOLD_MS', '-5'],
  ])('fails with InvalidConfigError naming %s when it is %j', (variable, value) => {
    let caught: unknown;
    try {
      resolveConfig({}, { [variable]: value });
    } catch (error) {
      caught = error;
    }
    expect(InvalidConfigError.is(caught)).toBe(true);
    expect(caught).toMatchObject({ variable, value });
    expect((caught as Error).message).toContain(variable);
  });

  it('checks a value given in code by the same rule as its variable, naming both', () => {
    let caught: unknown;
    try {
      resolveConfig({ workerConcurrency: 0 }, {});
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({
      variable: 'FLOTILLA_WORKER_CONCURRENCY',
      option: 'workerConcurrency',
      value: '0',
    });
    expect((caught as Error).message).toContain('a whole number greater than 0');
  });
});

describe('resolveConfig with values that once passed', () => {
  it('refuses values given in code that break their rule, naming the first', () => {
    let caught: unknown;
    try {
      resolveConfig({ workerConcurrency: 0, lockDurationMs: -5, prefix: 'has space{x}' }, {});
    } catch (error) {
      caught = error;
    }
    expect(InvalidConfigError.is(caught)).toBe(true);
    expect((caught as InvalidConfigError).option).toMatch(/^(prefix|workerConcurrency|lockDurationMs)$/);
    for (const [option, value] of [
      ['lockDurationMs', -5],
      ['prefix', 'has space{x}'],
      ['requestTimeoutMs', 1.5],
      ['logLevel', 'loud'],
    ] as const) {
      expect(() => resolveConfig({ [option]: value }, {})).toThrow(
        expect.objectContaining({ name: 'InvalidConfigError', option }),
      );
    }
  });

  it.each(['FLOTILLA_PREFIX', 'REDIS_URL', 'FLOTILLA_WORKER_CONCURRENCY', 'LOG_LEVEL'])(
    'refuses %s set but empty (or blank), naming it, instead of using the default',
    (variable) => {
      for (const value of ['', '   ']) {
        let caught: unknown;
        try {
          resolveConfig({}, { [variable]: value });
        } catch (error) {
          caught = error;
        }
        expect(caught).toMatchObject({ name: 'InvalidConfigError', variable });
        expect((caught as Error).message).toContain(`${variable}=`);
        expect((caught as Error).message).toContain('set but empty');
      }
    },
  );

  it('still lets a value given in code hide an empty variable', () => {
    expect(resolveConfig({ prefix: 'acme' }, { FLOTILLA_PREFIX: '' }).prefix).toBe('acme');
  });
});
