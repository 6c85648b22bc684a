import { IRValidationError } from '../errors.js';
import {
  attachmentFromFileData,
  attachmentFromFileId,
  attachmentFromUrl,
} from '../input/attachment-from-reference.js';
import { joinText } from '../input/join-text.js';
import { withImageDetail } from '../input/with-image-detail.js';
import { type Attachment, IMAGE_DETAILS } from '../types/attachment.js';
import {
  expectArray,
  expectRecord,
  expectString,
  type InputRecord,
  optionalString,
} from '../validation/expect-value.js';
import { inputPath } from '../validation/input-path.js';

/** The text and media of a Responses message `content` or a `function_call_output` `output`. */
export interface ResponsesContent {
  text: string;
  attachments: Attachment[];
}

const TEXT_PARTS = new Set(['input_text', 'output_text']);

/**
 * Reads Responses content (a string, or parts; `value` is at `path`): `input_text` /
 * `output_text` (and `refusal`) parts are joined with `\n`; `input_image` / `input_file` parts
 * become normalised attachments (an image keeps its `detail`; a data URL is split into media type and raw base64, an
 * `http(s)` URL is `source: 'url'`, a `file_id` is `source: 'file-id'`; files without a known
 * type are `application/octet-stream`, images `image/*`). Other part types are skipped;
 * `null` / missing content is empty.
 * @throws {IRValidationError} naming the path when a part does not fit.
 */
export function readResponsesContent(value: unknown, path: string): ResponsesContent {
  if (typeof value === 'string') return { text: value, attachments: [] };
  if (value === undefined || value === null) return { text: '', attachments: [] };
  const parts = expectArray(value, path, 'a string or an array of content parts');
  const text: string[] = [];
  const attachments: Attachment[] = [];
  parts.forEach((item, index) => {
    const partPath = inputPath(path, index);
    const part = expectRecord(item, partPath, 'a content part object');
    const type = expectString(part.type, inputPath(partPath, 'type'));
    if (TEXT_PARTS.has(type)) text.push(expectString(part.text, inputPath(partPath, 'text')));
    else if (type === 'refusal') text.push(expectString(part.refusal, inputPath(partPath, 'refusal')));
    else if (type === 'input_image') attachments.push(readInputImage(part, partPath));
    else if (type === 'input_file') attachments.push(readInputFile(part, partPath));
  });
  return { text: joinText(text), attachments };
}

function readInputImage(part: InputRecord, path: string): Attachment {
  return withImageDetail(readImageSource(part, path), part.detail, inputPath(path, 'detail'), IMAGE_DETAILS);
}

function readImageSource(part: InputRecord, path: string): Attachment {
  const imageUrl = optionalString(part.image_url, inputPath(path, 'image_url'));
  if (imageUrl !== undefined)
    return attachmentFromUrl(imageUrl, inputPath(path, 'image_url'), { mediaType: 'image/*' });
  const fileId = optionalString(part.file_id, inputPath(path, 'file_id'));
  if (fileId !== undefined) return attachmentFromFileId(fileId, { mediaType: 'image/*' });
  throw new IRValidationError(
    path,
    'expected `image_url` (an http(s) or data: URL) or `file_id`, got neither',
  );
}

function readInputFile(part: InputRecord, path: string): Attachment {
  const filename = optionalString(part.filename, inputPath(path, 'filename'));
  const hints = { mediaType: 'application/octet-stream', filename };
  const fileData = optionalString(part.file_data, inputPath(path, 'file_data'));
  if (fileData !== undefined) return attachmentFromFileData(fileData, hints);
  const fileUrl = optionalString(part.file_url, inputPath(path, 'file_url'));
  if (fileUrl !== undefined) return attachmentFromUrl(fileUrl, inputPath(path, 'file_url'), hints);
  const fileId = optionalString(part.file_id, inputPath(path, 'file_id'));
  if (fileId !== undefined) return attachmentFromFileId(fileId, hints);
  throw new IRValidationError(path, 'expected `file_data` (a data: URL), `file_url` or `file_id`, got none');
}
