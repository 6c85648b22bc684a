import { createHash, timingSafeEqual } from 'node:crypto';
import {
  ForbiddenError,
  ForeignOriginError,
  TokenInQueryError,
  UnauthorizedError,
} from '../errors/http-errors.js';
import type { ApiToken } from '../scheduler-config.js';
import type { Principal } from './api-env.js';

/** What {@link authorizeRequest} looks at. */
export interface RequestCredentials {
  /** The socket's peer address. */
  remoteAddress: string | undefined;
  /** Request headers, lower-case names. */
  header(name: string): string | undefined;
  /** Query parameter names and values. */
  query: URLSearchParams;
}

/** The principal of the tokenless loopback mode. */
export const DEFAULT_PRINCIPAL: Readonly<Principal> = Object.freeze({ name: 'default' });

/** Query parameters that carry credentials in other APIs; refused so a token never ends up in a URL. */
const CREDENTIAL_PARAMETERS =
  /^(access_token|token|api[_-]?key|apikey|key|auth|authorization|bearer|secret)$/i;

/**
 * Lets a request through as a {@link Principal} (who it acts for), or throws. With `tokens`, the
 * request must carry `Authorization: Bearer <token>` of one of them (compared in constant time,
 * every token compared, so the time says nothing about which matched); the principal is that
 * token's name and tenant. Without any, only loopback requests (127.0.0.0/8, ::1) to a loopback
 * `Host` with no foreign `Origin` are accepted: an API left without a token is then open neither
 * to the network nor to web pages in the developer's browser (DNS rebinding, cross-site form
 * posts). A credential in the query string is refused either way.
 * @throws TokenInQueryError when a query parameter looks like a credential
 * @throws UnauthorizedError when the token is missing or wrong
 * @throws ForbiddenError when no token is configured and the request is not from loopback
 * @throws ForeignOriginError when no token is configured and Host or Origin is not loopback
 */
export function authorizeRequest(request: RequestCredentials, tokens: readonly ApiToken[]): Principal {
  for (const [name, value] of request.query)
    if (CREDENTIAL_PARAMETERS.test(name) || tokens.some((entry) => sameSecret(value, entry.token)))
      throw new TokenInQueryError(name);
  if (tokens.length === 0) {
    if (!isLoopback(request.remoteAddress)) throw new ForbiddenError(request.remoteAddress);
    if (!isLoopbackHost(request.header('host'))) throw new ForeignOriginError('Host');
    const origin = request.header('origin');
    if (origin !== undefined && !isLoopbackOrigin(origin)) throw new ForeignOriginError('Origin');
    return DEFAULT_PRINCIPAL;
  }
  const match = /^Bearer\s+(.+)$/i.exec(request.header('authorization') ?? '');
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

/** Whether a `Host` header names this machine: `localhost`, `127.x.x.x` or `[::1]`, any port. */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined) return false;
  const match = /^(\[::1\]|[a-z0-9.-]+)(:\d{1,5})?$/i.exec(host.trim());
  const name = match?.[1]?.toLowerCase();
  if (name === undefined) return false;
  return name === 'localhost' || name === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** Whether an `Origin` header is a page served from this machine (`http(s)://localhost:…`). */
function isLoopbackOrigin(origin: string): boolean {
  const match = /^https?:\/\/(.+)$/i.exec(origin.trim());
  return match?.[1] !== undefined && isLoopbackHost(match[1]);
}

function sameSecret(given: string, expected: string): boolean {
  // Hashing first gives equal lengths, so the comparison time says nothing about the token.
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}
