import { ID_PATTERN, ID_RULE, RUN_ID_PATTERN } from '@flotilla/runtime/internals';
import { type RouteConfig, type RouteHandler, z } from '@hono/zod-openapi';
import type { ApiApp, ApiEnv } from '../http/api-env.js';
import { ERROR_STATUS } from '../http/error-status.js';

/**
 * One endpoint: its OpenAPI route (the zod schemas that validate its parameters and body and
 * describe its answers) and its handler. Adding an endpoint is one file exporting one of these
 * and one line in `API_ROUTES` (`routes/api-routes.ts`).
 */
export interface ApiRoute {
  readonly method: string;
  /** OpenAPI path, `{id}` for a parameter. */
  readonly path: string;
  register(app: ApiApp): void;
}

/** Builds an {@link ApiRoute} from a `createRoute(...)` config and its handler. */
export function defineApiRoute<R extends RouteConfig>(route: R, handler: RouteHandler<R, ApiEnv>): ApiRoute {
  return {
    method: route.method.toUpperCase(),
    path: route.path,
    register: (app) => {
      app.openapi(route, handler);
    },
  };
}

/** An error answer: `{ error: { name, message, data? } }` (never a stack). */
export const errorBodySchema = z
  .object({
    error: z.object({
      name: z.string().openapi({ example: 'RunNotFoundError' }),
      message: z.string(),
      data: z.record(z.string(), z.unknown()).optional(),
    }),
  })
  .openapi('Error');

/** Error names by status, from `ERROR_STATUS`, for the descriptions of error answers. */
function namesOf(status: number): string {
  const names = Object.entries(ERROR_STATUS)
    .filter(([, code]) => code === status)
    .map(([name]) => name);
  return names.length > 0 ? names.join(', ') : 'InternalServerError';
}

/** Answers every authenticated route can give (auth, transport, Redis, unexpected). */
const COMMON_ERRORS = [400, 401, 403, 500, 503] as const;

/** The OpenAPI `responses` of the given error statuses (plus the common ones). */
export function errorResponses(...statuses: number[]) {
  const responses: Record<
    number,
    { description: string; content: { 'application/json': { schema: typeof errorBodySchema } } }
  > = {};
  for (const status of [...new Set([...COMMON_ERRORS, ...statuses])].sort())
    responses[status] = {
      description: namesOf(status),
      content: { 'application/json': { schema: errorBodySchema } },
    };
  return responses;
}

/** The `{id}` path parameter of run routes (child runs' ids are longer than submitted ones). */
export const runIdParamsSchema = z.object({
  id: z
    .string()
    .regex(RUN_ID_PATTERN, { error: `must be a run id (${ID_RULE}, child runs a little longer)` })
    .openapi({ param: { name: 'id', in: 'path' }, example: 'run-1' }),
});

/** The `{id}` path parameter of conversation routes. */
export const conversationIdParamsSchema = z.object({
  id: z
    .string()
    .regex(ID_PATTERN, { error: `must be a conversation id (${ID_RULE})` })
    .openapi({ param: { name: 'id', in: 'path' }, example: 'conversation-1' }),
});

/** A JSON answer of `schema`. */
export function jsonContent<S extends z.ZodType>(schema: S, description: string) {
  return { description, content: { 'application/json': { schema } } };
}
