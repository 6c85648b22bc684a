import { attachmentFromUrl } from '../input/attachment-from-reference.js';
import type { Attachment } from '../types/attachment.js';
import { expectRecord, expectString, type InputRecord, optionalString } from '../validation/expect-value.js';
import { inputPath } from '../validation/input-path.js';

/**
 * Reads the media of a Gemini part (`part` is at `path`), if it has any: `inlineData` becomes a
 * base64 attachment with its `mimeType`; `fileData` becomes a URL attachment (`gs://`, Files
 * API or other `http(s)` URI) whose media type is `mimeType`, else guessed from the URI, else
 * `application/octet-stream`. Returns `undefined` for parts without media.
 * @throws {IRValidationError} naming the path when `inlineData` / `fileData` does not fit.
 */
export function readGeminiMedia(part: InputRecord, path: string): Attachment | undefined {
  if (part.inlineData !== undefined && part.inlineData !== null) {
    const blobPath = inputPath(path, 'inlineData');
    const blob = expectRecord(part.inlineData, blobPath, 'an object with `mimeType` and `data`');
    return {
      mediaType: expectString(blob.mimeType, inputPath(blobPath, 'mimeType')),
      data: expectString(blob.data, inputPath(blobPath, 'data'), 'raw base64'),
      source: 'base64',
    };
  }
  if (part.fileData !== undefined && part.fileData !== null) {
    const filePath = inputPath(path, 'fileData');
    const file = expectRecord(part.fileData, filePath, 'an object with `fileUri`');
    const uriPath = inputPath(filePath, 'fileUri');
    const attachment = attachmentFromUrl(
      expectString(file.fileUri, uriPath, 'a gs:// or http(s) URI'),
      uriPath,
      {
        mediaType: 'application/octet-stream',
      },
    );
    const mimeType = optionalString(file.mimeType, inputPath(filePath, 'mimeType'));
    return mimeType === undefined ? attachment : { ...attachment, mediaType: mimeType };
  }
  return undefined;
}
