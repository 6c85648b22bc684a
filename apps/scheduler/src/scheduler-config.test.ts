import { describe, expect, it } from 'vitest';
import { acceptedTokens, resolveSchedulerConfig } from './scheduler-config.js';

const ACME = { name: 'acme-app', token: 'acme-token-0123456789', tenant: 'acme' };
const OPS = { name: 'ops', token: 'ops-token-0123456789' };

function failure(env: Record<string, string>): { variable: string; message: string; value: string } {
  try {
    resolveSchedulerConfig(env);
  } catch (error) {
    return error as { variable: string; message: string; value: string };
  }
  throw new Error('expected the configuration to be refused');
}

describe('resolveSchedulerConfig', () => {
  it('reads named tokens from FLOTILLA_API_TOKENS and adds FLOTILLA_API_TOKEN as `api-token`', () => {
    const config = resolveSchedulerConfig({
      FLOTILLA_API_TOKENS: JSON.stringify([ACME, OPS]),
      FLOTILLA_API_TOKEN: 'single-token-0123456789',
    });
    expect(config.apiTokens).toEqual([ACME, OPS]);
    expect(acceptedTokens(config)).toEqual([
      ACME,
      OPS,
      { name: 'api-token', token: 'single-token-0123456789' },
    ]);
  });

  it('has no token by default (loopback only)', () => {
    expect(acceptedTokens(resolveSchedulerConfig({}))).toEqual([]);
  });

  it.each([
    ['not JSON', 'acme:token', 'a JSON array'],
    ['not an array', JSON.stringify(ACME), 'a JSON array'],
    ['a short token', JSON.stringify([{ ...ACME, token: 'short' }]), 'at least 16 characters'],
    ['a missing name', JSON.stringify([{ token: ACME.token }]), '`name`'],
    ['a tenant breaking the id rule', JSON.stringify([{ ...ACME, tenant: 'a b' }]), 'ASCII letters'],
    ['an unknown field', JSON.stringify([{ ...ACME, role: 'admin' }]), ''],
    ['two tokens with one name', JSON.stringify([ACME, { ...OPS, name: ACME.name }]), 'names must be unique'],
    ['one token twice', JSON.stringify([ACME, { ...OPS, token: ACME.token }]), 'tokens must be unique'],
  ])(
    'refuses FLOTILLA_API_TOKENS with %s, naming the variable and hiding the value',
    (_what, text, expected) => {
      const error = failure({ FLOTILLA_API_TOKENS: text });
      expect(error).toMatchObject({
        name: 'InvalidConfigError',
        variable: 'FLOTILLA_API_TOKENS',
        value: '(hidden)',
      });
      expect(error.message).toContain(expected);
      expect(error.message).not.toContain(ACME.token);
    },
  );

  it('refuses FLOTILLA_API_TOKEN repeating a named token', () => {
    const error = failure({ FLOTILLA_API_TOKENS: JSON.stringify([ACME]), FLOTILLA_API_TOKEN: ACME.token });
    expect(error).toMatchObject({ variable: 'FLOTILLA_API_TOKENS' });
  });

  it.each(['FLOTILLA_API_TOKEN', 'FLOTILLA_API_TOKENS', 'FLOTILLA_PREFIX', 'FLOTILLA_SCHEDULER_HOST'])(
    'refuses %s set but empty instead of falling back (no token: loopback only)',
    (variable) => {
      expect(failure({ [variable]: '' })).toMatchObject({ name: 'InvalidConfigError', variable });
    },
  );
});
