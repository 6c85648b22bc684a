import { ConversationNotFoundError, InvalidRequestError } from '../errors/http-errors.js';
import { sendJson } from '../http/send-json.js';
import type { RouteContext } from './route-context.js';

/**
 * `GET /conversations/:id?version=N` → 200 `{ header, messages }` at version N (default the
 * latest). 404 `ConversationNotFoundError` or `ConversationVersionNotFoundError`; 400 for a
 * `version` that is not a whole number.
 */
export async function getConversation(context: RouteContext): Promise<void> {
  const conversationId = context.params.id ?? '';
  const versionText = context.url.searchParams.get('version');
  let version: number | undefined;
  if (versionText !== null) {
    version = Number(versionText);
    if (!/^\d+$/.test(versionText) || !Number.isSafeInteger(version))
      throw new InvalidRequestError(`\`version\` must be a whole number, 0 or more; got "${versionText}".`);
  }
  const conversation = await context.client.getConversation(
    conversationId,
    version === undefined ? undefined : { version },
  );
  if (!conversation) throw new ConversationNotFoundError(conversationId);
  sendJson(context.response, 200, conversation);
}
