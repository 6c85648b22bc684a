import { InvalidRequestError, MethodNotAllowedError, RouteNotFoundError } from '../errors/http-errors.js';
import { cancelRun } from './cancel-run.js';
import { getConversation } from './get-conversation.js';
import { getRun } from './get-run.js';
import type { RouteHandler } from './route-context.js';
import { streamRunEvents } from './stream-run-events.js';
import { submitRun } from './submit-run.js';

interface Route {
  method: string;
  pattern: RegExp;
  handler: RouteHandler;
}

/** Every endpoint of the API; `(?<id>…)` captures a path parameter. */
const ROUTES: readonly Route[] = [
  { method: 'POST', pattern: /^\/runs$/, handler: submitRun },
  { method: 'GET', pattern: /^\/runs\/(?<id>[^/]+)$/, handler: getRun },
  { method: 'GET', pattern: /^\/runs\/(?<id>[^/]+)\/events$/, handler: streamRunEvents },
  { method: 'POST', pattern: /^\/runs\/(?<id>[^/]+)\/cancel$/, handler: cancelRun },
  { method: 'GET', pattern: /^\/conversations\/(?<id>[^/]+)$/, handler: getConversation },
];

/** The handler and decoded path parameters for a request. */
export interface MatchedRoute {
  handler: RouteHandler;
  params: Record<string, string>;
}

/**
 * Finds the endpoint for `method` and `path`.
 * @throws RouteNotFoundError when no endpoint has the path
 * @throws MethodNotAllowedError when the path exists with other methods only
 * @throws InvalidRequestError when a path parameter is not valid percent-encoding
 */
export function matchRoute(method: string, path: string): MatchedRoute {
  const candidates = ROUTES.map((route) => ({ route, match: route.pattern.exec(path) })).filter(
    (candidate) => candidate.match !== null,
  );
  if (candidates.length === 0) throw new RouteNotFoundError(method, path);
  const found = candidates.find((candidate) => candidate.route.method === method);
  if (!found?.match)
    throw new MethodNotAllowedError(
      method,
      path,
      candidates.map((candidate) => candidate.route.method),
    );
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(found.match.groups ?? {})) params[name] = decodePathPart(value);
  return { handler: found.route.handler, params };
}

function decodePathPart(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new InvalidRequestError(`The path part "${value}" is not valid percent-encoding.`);
  }
}
