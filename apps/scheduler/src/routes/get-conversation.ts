import { createRoute, z } from '@hono/zod-openapi';
import { ConversationNotFoundError } from '../errors/http-errors.js';
import { clientFor } from '../http/client-for.js';
import { conversationIdParamsSchema, defineApiRoute, errorResponses, jsonContent } from './api-route.js';

const querySchema = z.object({
  version: z
    .string()
    .regex(/^\d{1,15}$/, { error: 'must be a whole number, 0 or more' })
    .transform(Number)
    .optional()
    .openapi({ param: { name: 'version', in: 'query' }, example: '4' }),
});

const conversationSchema = z
  .looseObject({
    header: z.looseObject({ conversationId: z.string(), version: z.int() }),
    messages: z.array(z.looseObject({ role: z.string() })),
  })
  .openapi('Conversation');

/**
 * `GET /conversations/{id}?version=N` → 200 `{ header, messages }` at version N (default the
 * latest). 404 `ConversationNotFoundError` or `ConversationVersionNotFoundError`; 400 for a
 * `version` that is not a whole number.
 */
export const getConversation = defineApiRoute(
  createRoute({
    method: 'get',
    path: '/conversations/{id}',
    summary: 'Read a stored conversation',
    request: { params: conversationIdParamsSchema, query: querySchema },
    responses: { 200: jsonContent(conversationSchema, 'The conversation'), ...errorResponses(404) },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    const { version } = c.req.valid('query');
    const conversation = await clientFor(c).getConversation(
      id,
      version === undefined ? undefined : { version },
    );
    if (!conversation) throw new ConversationNotFoundError(id);
    return c.json(conversation as unknown as z.infer<typeof conversationSchema>, 200);
  },
);
