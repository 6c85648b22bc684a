import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { authorizeRequest, isLoopback } from './authorize-request.js';

const TOKEN = 'a-token-of-twenty-chars';
const TOKENS = [{ name: 'ops', token: TOKEN }];
const NAMED = [
  { name: 'acme-app', token: 'acme-token-0123456789', tenant: 'acme' },
  { name: 'globex-app', token: 'globex-token-0123456789', tenant: 'globex' },
  ...TOKENS,
];

function request(remoteAddress: string, authorization?: string): IncomingMessage {
  return {
    socket: { remoteAddress },
    headers: authorization ? { authorization } : {},
  } as unknown as IncomingMessage;
}

describe('authorizeRequest', () => {
  describe('when no token is configured', () => {
    it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])(
      'accepts a loopback request from %s',
      (address) => {
        expect(() => authorizeRequest(request(address), [])).not.toThrow();
      },
    );

    it.each(['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', 'fe80::1'])(
      'refuses %s with ForbiddenError',
      (address) => {
        expect(() => authorizeRequest(request(address), [])).toThrow(
          expect.objectContaining({
            name: 'ForbiddenError',
            message: expect.stringContaining('FLOTILLA_API_TOKEN'),
          }),
        );
      },
    );
  });

  describe('when a token is configured', () => {
    it('accepts the bearer token from any address', () => {
      expect(authorizeRequest(request('10.0.0.5', `Bearer ${TOKEN}`), TOKENS)).toEqual({ name: 'ops' });
    });

    it.each([
      ['no header', undefined],
      ['another token', 'Bearer another-token-of-twenty'],
      ['a basic credential', `Basic ${TOKEN}`],
    ])('refuses %s with UnauthorizedError, even from loopback', (_case, authorization) => {
      expect(() => authorizeRequest(request('127.0.0.1', authorization), TOKENS)).toThrow(
        expect.objectContaining({ name: 'UnauthorizedError' }),
      );
    });
  });
});

describe('when named tokens are configured', () => {
  it('answers with the principal of the token the request carries, tenant included', () => {
    expect(authorizeRequest(request('10.0.0.5', 'Bearer acme-token-0123456789'), NAMED)).toEqual({
      name: 'acme-app',
      tenant: 'acme',
    });
    expect(authorizeRequest(request('10.0.0.5', 'Bearer globex-token-0123456789'), NAMED)).toEqual({
      name: 'globex-app',
      tenant: 'globex',
    });
    expect(authorizeRequest(request('10.0.0.5', `Bearer ${TOKEN}`), NAMED)).toEqual({ name: 'ops' });
  });

  it('refuses a token that is none of them, even from loopback', () => {
    expect(() => authorizeRequest(request('127.0.0.1', 'Bearer acme-token-01234567890'), NAMED)).toThrow(
      expect.objectContaining({ name: 'UnauthorizedError' }),
    );
  });
});

describe('isLoopback', () => {
  it('is false for an unknown address', () => {
    expect(isLoopback(undefined)).toBe(false);
  });
});
