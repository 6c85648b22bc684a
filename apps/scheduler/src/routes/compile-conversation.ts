import { ContextChef } from '@flotilla/ir';
import { createRoute, z } from '@hono/zod-openapi';
import { ConversationNotFoundError } from '../errors/http-errors.js';
import { clientFor } from '../http/client-for.js';
import { conversationIdParamsSchema, defineApiRoute, errorResponses, jsonContent } from './api-route.js';

/** The built-in targets a stored conversation can be compiled for. */
export const COMPILE_TARGETS = ['openai', 'anthropic', 'gemini', 'openai-responses'] as const;

const querySchema = z.strictObject({
  target: z
    .enum(COMPILE_TARGETS)
    .openapi({ param: { name: 'target', in: 'query' }, description: 'The provider payload to compile for' }),
  version: z
    .string()
    .regex(/^\d{1,15}$/, { error: 'must be a whole number, 0 or more' })
    .transform(Number)
    .optional()
    .openapi({ param: { name: 'version', in: 'query' }, example: '2' }),
});

const warningSchema = z.object({
  code: z.string().openapi({ example: 'thinking-dropped' }),
  message: z.string(),
  messageIndex: z.int().optional(),
});

const compiledSchema = z
  .object({
    conversationId: z.string(),
    version: z.int(),
    target: z.enum(COMPILE_TARGETS),
    payload: z
      .record(z.string(), z.unknown())
      .openapi({ description: "The provider's request payload (no tools)" }),
    warnings: z.array(warningSchema).openapi({ description: 'What the target could not carry and degraded' }),
  })
  .openapi('CompiledConversation');

/**
 * `GET /conversations/{id}/compiled?target=&version=` → 200 `{ conversationId, version, target,
 * payload, warnings }`: the stored conversation (system prompt and messages at that version,
 * default the latest) compiled by `@flotilla/ir` for a built-in target, with the degradations
 * the target reported. Pure: nothing is sent to a provider. 404 as `GET /conversations/{id}`.
 */
export const compileConversation = defineApiRoute(
  createRoute({
    method: 'get',
    path: '/conversations/{id}/compiled',
    summary: 'Compile a stored conversation for a provider target, with its warnings',
    request: { params: conversationIdParamsSchema, query: querySchema },
    responses: { 200: jsonContent(compiledSchema, 'The compiled payload'), ...errorResponses(404) },
  }),
  async (c) => {
    const { id } = c.req.valid('param');
    const { target, version } = c.req.valid('query');
    const conversation = await clientFor(c).getConversation(
      id,
      version === undefined ? undefined : { version },
    );
    if (!conversation) throw new ConversationNotFoundError(id);
    const chef = new ContextChef()
      .setSystemPrompt(conversation.header.system)
      .setHistory(conversation.messages);
    const { meta, ...payload } = await chef.compile({ target });
    return c.json(
      { conversationId: id, version: conversation.header.version, target, payload, warnings: meta.warnings },
      200,
    );
  },
);
