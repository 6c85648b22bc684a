import { guessMediaType } from '../input/guess-media-type.js';
import { type Attachment, parseDataUrl } from '../types/attachment.js';
import type { Message } from '../types/message.js';
import { expectArray, expectRecord, type InputRecord } from '../validation/expect-value.js';
import { inputPath } from '../validation/input-path.js';
import { parseMessage } from './parse-message.js';

/**
 * A snapshot written by the public ContextChef (`chef.snapshot()` of `@context-chef/core`): it
 * has no `schemaVersion` and names the system prompt `systemPrompt`.
 */
export function isContextChefSnapshot(snapshot: InputRecord): boolean {
  return snapshot.schemaVersion === undefined && snapshot.systemPrompt !== undefined;
}

const REMOTE_URL = /^(https?:|gs:)\/\//i;
/** Text that can be base64; anything else in `data` (`file-…`, `file_…`) is a provider file id. */
const BASE64_TEXT = /^[A-Za-z0-9+/=\s]*$/;

/**
 * Rewrites a ContextChef snapshot as a schema-version-1 one, for {@link parseChefSnapshot} to
 * validate like any other:
 * - `systemPrompt` becomes `system`, `history` stays;
 * - attachments get an explicit `source`: a `data:` URL is split into its media type (when the
 *   stored one is empty or a wildcard such as `image/*`) and raw base64; `http(s)://` and
 *   `gs://` are URLs (a wildcard type is refined from the extension); text that cannot be base64
 *   is a provider file id; anything else is raw base64.
 * Everything ContextChef keeps besides the conversation (dynamic state, memory, skills, Janitor
 * and Pruner state, `label`, `createdAt`) has no counterpart here and is left behind. Messages
 * are not otherwise changed: the IR fields they share keep their names and meaning.
 * @throws {IRValidationError} naming the path in the ContextChef snapshot
 * (`systemPrompt[0].content`, `history[2].attachments[0].data`) when a message is not valid IR.
 */
export function migrateContextChefSnapshot(snapshot: InputRecord): InputRecord {
  return {
    schemaVersion: 1,
    system: migrateMessages(snapshot.systemPrompt, 'systemPrompt'),
    history: migrateMessages(snapshot.history, 'history'),
  };
}

/** Migrated and validated here, so an error names the place in the ContextChef snapshot. */
function migrateMessages(value: unknown, path: string): Message[] {
  return expectArray(value, path, 'a list of messages').map((entry, index) => {
    const at = inputPath(path, index);
    const message = expectRecord(entry, at, 'a message object');
    if (message.attachments === undefined) return parseMessage(message, at);
    const attachments = expectArray(message.attachments, inputPath(at, 'attachments'));
    const migrated = {
      ...message,
      attachments: attachments.map((item, position) =>
        migrateAttachment(expectRecord(item, inputPath(inputPath(at, 'attachments'), position))),
      ),
    };
    return parseMessage(migrated, at);
  });
}

function migrateAttachment(attachment: InputRecord): InputRecord {
  const { data, mediaType } = attachment;
  if (attachment.source !== undefined || typeof data !== 'string' || typeof mediaType !== 'string')
    return attachment; // already ours, or invalid: parseMessage names the problem
  const vague = mediaType === '' || mediaType.endsWith('/*');
  const dataUrl = parseDataUrl(data);
  const migrated: Pick<Attachment, 'data' | 'mediaType' | 'source'> = dataUrl
    ? { data: dataUrl.base64, mediaType: vague ? dataUrl.mediaType : mediaType, source: 'base64' }
    : REMOTE_URL.test(data)
      ? { data, mediaType: vague ? guessMediaType(data, mediaType) : mediaType, source: 'url' }
      : { data, mediaType, source: BASE64_TEXT.test(data) ? 'base64' : 'file-id' };
  return { ...attachment, ...migrated };
}
