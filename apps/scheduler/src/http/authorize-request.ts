import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { ForbiddenError, UnauthorizedError } from '../errors/http-errors.js';

/**
 * Lets a request through or throws. With a `token`, the request must carry
 * `Authorization: Bearer <token>` (compared in constant time). Without one, only loopback
 * requests (127.0.0.0/8, ::1) are accepted, so an API left without a token is not open to the
 * network.
 * @throws UnauthorizedError when the token is missing or wrong
 * @throws ForbiddenError when no token is configured and the request is not from loopback
 */
export function authorizeRequest(request: IncomingMessage, token: string | undefined): void {
  if (token === undefined) {
    if (!isLoopback(request.socket.remoteAddress)) throw new ForbiddenError(request.socket.remoteAddress);
    return;
  }
  const match = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
  if (!match?.[1] || !sameSecret(match[1].trim(), token)) throw new UnauthorizedError();
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
