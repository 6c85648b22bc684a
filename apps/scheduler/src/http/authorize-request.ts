import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ForbiddenError, UnauthorizedError } from '../errors/http-errors.js';
import type { ApiToken } from '../scheduler-config.js';

/** Who a request comes from: the name of its token and, when the token has one, its tenant. */
export interface Principal {
  name: string;
  tenant?: string;
}

/** The principal of a loopback request to an API without tokens. */
export const LOOPBACK_PRINCIPAL: Principal = { name: 'loopback' };

/**
 * Lets a request through as a {@link Principal}, or throws. With `tokens`, the request must carry
 * `Authorization: Bearer <token>` of one of them (compared in constant time, every token
 * compared, so the time says nothing about which matched). Without any, only loopback requests
 * (127.0.0.0/8, ::1) are accepted, so an API left without a token is not open to the network.
 * @throws UnauthorizedError when the token is missing or wrong
 * @throws ForbiddenError when no token is configured and the request is not from loopback
 */
export function authorizeRequest(request: IncomingMessage, tokens: readonly ApiToken[]): Principal {
  if (tokens.length === 0) {
    if (!isLoopback(request.socket.remoteAddress)) throw new ForbiddenError(request.socket.remoteAddress);
    return LOOPBACK_PRINCIPAL;
  }
  const match = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
  const given = match?.[1]?.trim();
  if (!given) throw new UnauthorizedError();
  let found: ApiToken | undefined;
  for (const entry of tokens) if (sameSecret(given, entry.token)) found ??= entry;
  if (!found) throw new UnauthorizedError();
  return found.tenant === undefined ? { name: found.name } : { name: found.name, tenant: found.tenant };
}

/** Whether `address` is this machine (IPv4 loopback, also IPv4-mapped, or ::1). */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const ipv4 = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return ipv4.startsWith('127.') || address === '::1';
}

function sameSecret(given: string, expected: string): boolean {
  // Hashing first gives equal lengths, so the comparison time says nothing about the token.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
