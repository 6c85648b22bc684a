import { describe, expect, it } from 'vitest';
import {
  authorizeRequest,
  isLoopback,
  isLoopbackHost,
  type RequestCredentials,
} from './authorize-request.js';

const TOKEN = 'a-token-of-twenty-chars';
const TOKENS = [{ name: 'ops', token: TOKEN }];
const NAMED = [
  { name: 'acme-app', token: 'acme-token-0123456789', tenant: 'acme' },
  { name: 'globex-app', token: 'globex-token-0123456789', tenant: 'globex' },
  ...TOKENS,
];

function request(
  remoteAddress: string,
  headers: Record<string, string> = { host: '127.0.0.1:8080' },
  query = '',
): RequestCredentials {
  return { remoteAddress, header: (name) => headers[name], query: new URLSearchParams(query) };
}

describe('authorizeRequest', () => {
  describe('when no token is configured', () => {
    it.each(['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1'])(
      'accepts a loopback request from %s as the default principal',
      (address) => {
        expect(authorizeRequest(request(address), [])).toEqual({ name: 'default' });
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

    it.each([
      ['a foreign Host (DNS rebinding)', { host: 'attacker.example:8080' }],
      ['no Host', {}],
      ['a foreign Origin (a web page)', { host: 'localhost:8080', origin: 'https://attacker.example' }],
      ['a null Origin', { host: 'localhost:8080', origin: 'null' }],
    ])('refuses %s from loopback with ForeignOriginError', (_case, headers: Record<string, string>) => {
      expect(() => authorizeRequest(request('127.0.0.1', headers), [])).toThrow(
        expect.objectContaining({ name: 'ForeignOriginError' }),
      );
    });

    it('accepts a page served from localhost', () => {
      const headers = { host: 'localhost:8080', origin: 'http://localhost:3000' };
      expect(authorizeRequest(request('::1', headers), [])).toEqual({ name: 'default' });
    });
  });

  describe('when a token is configured', () => {
    it('accepts the bearer token from any address and any Host', () => {
      const headers = { host: 'api.example', authorization: `Bearer ${TOKEN}` };
      expect(authorizeRequest(request('10.0.0.5', headers), TOKENS)).toEqual({ name: 'ops' });
    });

    it.each([
      ['no header', undefined],
      ['another token', 'Bearer another-token-of-twenty'],
      ['a basic credential', `Basic ${TOKEN}`],
    ])('refuses %s with UnauthorizedError, even from loopback', (_case, authorization) => {
      const headers: Record<string, string> = { host: 'localhost' };
      if (authorization) headers.authorization = authorization;
      expect(() => authorizeRequest(request('127.0.0.1', headers), TOKENS)).toThrow(
        expect.objectContaining({ name: 'UnauthorizedError' }),
      );
    });

    it.each([`access_token=${TOKEN}`, 'api_key=x', `q=${TOKEN}`])(
      'refuses a credential in the query string (%s) with TokenInQueryError',
      (query) => {
        const headers = { host: 'localhost', authorization: `Bearer ${TOKEN}` };
        expect(() => authorizeRequest(request('127.0.0.1', headers, query), TOKENS)).toThrow(
          expect.objectContaining({ name: 'TokenInQueryError' }),
        );
      },
    );
  });
});

describe('when named tokens are configured', () => {
  it('answers with the principal of the token the request carries, tenant included', () => {
    expect(
      authorizeRequest(
        request('10.0.0.5', { host: 'api.example', authorization: 'Bearer acme-token-0123456789' }),
        NAMED,
      ),
    ).toEqual({
      name: 'acme-app',
      tenant: 'acme',
    });
    expect(
      authorizeRequest(
        request('10.0.0.5', { host: 'api.example', authorization: 'Bearer globex-token-0123456789' }),
        NAMED,
      ),
    ).toEqual({
      name: 'globex-app',
      tenant: 'globex',
    });
    expect(
      authorizeRequest(request('10.0.0.5', { host: 'api.example', authorization: `Bearer ${TOKEN}` }), NAMED),
    ).toEqual({ name: 'ops' });
  });

  it('refuses a token that is none of them, even from loopback', () => {
    expect(() =>
      authorizeRequest(
        request('127.0.0.1', { host: 'localhost', authorization: 'Bearer acme-token-01234567890' }),
        NAMED,
      ),
    ).toThrow(expect.objectContaining({ name: 'UnauthorizedError' }));
  });
});

describe('isLoopback', () => {
  it('is false for an unknown address', () => {
    expect(isLoopback(undefined)).toBe(false);
  });
});

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST:80', '127.0.0.1:8080', '[::1]:8080', '127.1.2.3'])(
    'accepts %s',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true);
    },
  );
  it.each(['localhost.attacker.example', '127.0.0.1.nip.io', 'example.com', '0.0.0.0', '[::2]'])(
    'refuses %s',
    (host) => {
      expect(isLoopbackHost(host)).toBe(false);
    },
  );
});
