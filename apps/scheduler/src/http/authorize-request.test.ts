import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { authorizeRequest, isLoopback } from './authorize-request.js';

const TOKEN = 'a-token-of-twenty-chars';

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
        expect(() => authorizeRequest(request(address), undefined)).not.toThrow();
      },
    );

    it.each(['10.0.0.5', '192.168.1.20', '::ffff:10.0.0.5', 'fe80::1'])(
      'refuses %s with ForbiddenError',
      (address) => {
        expect(() => authorizeRequest(request(address), undefined)).toThrow(
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
      expect(() => authorizeRequest(request('10.0.0.5', `Bearer ${TOKEN}`), TOKEN)).not.toThrow();
    });

    it.each([
      ['no header', undefined],
      ['another token', 'Bearer another-token-of-twenty'],
      ['a basic credential', `Basic ${TOKEN}`],
    ])('refuses %s with UnauthorizedError, even from loopback', (_case, authorization) => {
      expect(() => authorizeRequest(request('127.0.0.1', authorization), TOKEN)).toThrow(
        expect.objectContaining({ name: 'UnauthorizedError' }),
      );
    });
  });
});

describe('isLoopback', () => {
  it('is false for an unknown address', () => {
    expect(isLoopback(undefined)).toBe(false);
  });
});
