import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FlotillaClient } from '@flotilla/runtime/client';
import type { Logger } from 'pino';

/** What an endpoint handler gets. */
export interface RouteContext {
  request: IncomingMessage;
  response: ServerResponse;
  /** Path parameters, decoded (`:id` → `params.id`). */
  params: Record<string, string>;
  url: URL;
  client: FlotillaClient;
  maxBodyBytes: number;
  logger: Logger;
}

/** An endpoint: answers through `context.response`, or throws an error the server answers. */
export type RouteHandler = (context: RouteContext) => Promise<void>;
