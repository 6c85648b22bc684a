import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { FlotillaClient } from '@flotilla/runtime/client';
import type { Logger } from 'pino';
import { authorizeRequest } from './http/authorize-request.js';
import { clientForPrincipal } from './http/client-for-principal.js';
import { sendError, sendJson } from './http/send-json.js';
import { matchRoute } from './routes/match-route.js';
import type { ApiToken } from './scheduler-config.js';

/** Options of {@link createSchedulerServer}. */
export interface SchedulerServerOptions {
  /** The runtime client every endpoint uses (the caller closes it). */
  client: FlotillaClient;
  /** Bearer tokens a request may carry (`acceptedTokens(config)`); none: loopback requests only. */
  apiTokens: readonly ApiToken[];
  /** Largest request body, in bytes. */
  maxBodyBytes: number;
  logger: Logger;
}

/**
 * The scheduler's HTTP API on `node:http` (not yet listening). `GET /healthz` answers without a
 * token; every other request is authorized (see `authorizeRequest`), routed (see `matchRoute`)
 * and answered with JSON, errors as `{ error: { name, message } }` with their status.
 */
export function createSchedulerServer(options: SchedulerServerOptions): Server {
  return createServer((request, response) => {
    handle(request, response, options).catch((error: unknown) => {
      // Only reached when answering itself failed (e.g. the client went away).
      options.logger.warn({ err: error }, 'request not answered');
      if (!response.headersSent) sendError(response, error);
      else response.destroy();
    });
  });
}

async function handle(
  request: IncomingMessage,
  response: ServerResponse,
  options: SchedulerServerOptions,
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://scheduler');
  const method = request.method ?? 'GET';
  if (method === 'GET' && url.pathname === '/healthz') return sendJson(response, 200, { healthy: true });
  try {
    const principal = authorizeRequest(request, options.apiTokens);
    const { handler, params } = matchRoute(method, url.pathname);
    await handler({
      request,
      response,
      params,
      url,
      client: clientForPrincipal(options.client, principal),
      maxBodyBytes: options.maxBodyBytes,
      logger: options.logger,
    });
  } catch (error) {
    if (response.headersSent) throw error;
    const status = sendError(response, error);
    const fields = { method, path: url.pathname, status };
    // 503 is Redis not answering: its outage is logged once already, so no stack per request.
    if (status === 503)
      options.logger.warn({ ...fields, reason: (error as Error).message }, 'request failed');
    else if (status >= 500) options.logger.error({ ...fields, err: error }, 'request failed');
    else options.logger.debug({ ...fields, err: error }, 'request refused');
  }
}
