import type { Attachment, ImageDetail } from '../types/attachment.js';
import { expectOneOf } from '../validation/expect-value.js';

/**
 * Adds an image part's `detail` to its attachment; absent and `null` (how SDKs spell "not
 * set") add nothing.
 * @param allowed - the values this provider takes (Chat Completions has no `'original'`).
 * @throws {IRValidationError} naming `path` when `detail` is another value.
 */
export function withImageDetail(
  attachment: Attachment,
  detail: unknown,
  path: string,
  allowed: readonly ImageDetail[],
): Attachment {
  if (detail === undefined || detail === null) return attachment;
  return { ...attachment, detail: expectOneOf(detail, path, allowed) };
}
