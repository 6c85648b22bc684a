import { IRValidationError } from '../errors.js';
import type { Attachment } from '../types/attachment.js';
import { parseDataUrl } from '../types/attachment.js';
import { guessMediaType } from './guess-media-type.js';

const REMOTE_URL = /^(https?:|gs:)\/\//i;

/** What the provider said (or implied) about the media besides its bytes or address. */
export interface AttachmentHints {
  /** Media type to use when the reference does not carry one (a plain URL, a file id). */
  mediaType: string;
  filename?: string;
}

/**
 * Normalises a URL-like reference (spec §13.1): a `data:…;base64,` URL becomes
 * `{ source: 'base64', mediaType: <from the URL>, data: <raw base64> }`; an `http(s)://` or
 * `gs://` URL becomes `{ source: 'url' }` with a media type guessed from its extension, else
 * `hints.mediaType`.
 * @throws {IRValidationError} naming `path` for anything else (a relative path, a data URL
 * that is not base64).
 */
export function attachmentFromUrl(url: string, path: string, hints: AttachmentHints): Attachment {
  const dataUrl = parseDataUrl(url);
  if (dataUrl)
    return withFilename({ mediaType: dataUrl.mediaType, data: dataUrl.base64, source: 'base64' }, hints);
  if (REMOTE_URL.test(url)) {
    const mediaType = guessMediaType(url, hints.mediaType);
    return withFilename({ mediaType, data: url, source: 'url' }, hints);
  }
  throw new IRValidationError(
    path,
    `expected an http(s):// or gs:// URL or a base64 data: URL (data:<type>;base64,…), got "${preview(url)}"`,
  );
}

/**
 * Normalises inline file bytes that may be a base64 `data:` URL or raw base64 (both occur in
 * OpenAI `file_data`). Raw base64 gets a media type from the file name, else `hints.mediaType`.
 */
export function attachmentFromFileData(fileData: string, hints: AttachmentHints): Attachment {
  const dataUrl = parseDataUrl(fileData);
  if (dataUrl)
    return withFilename({ mediaType: dataUrl.mediaType, data: dataUrl.base64, source: 'base64' }, hints);
  const mediaType = guessMediaType(hints.filename, hints.mediaType);
  return withFilename({ mediaType, data: fileData, source: 'base64' }, hints);
}

/**
 * A provider file id (`file-…`). Its media type is unknown unless the provider says so, so it
 * comes from the file name, else `hints.mediaType` (use `application/octet-stream`, never a
 * guessed `image/*`, for generic files).
 */
export function attachmentFromFileId(fileId: string, hints: AttachmentHints): Attachment {
  const mediaType = guessMediaType(hints.filename, hints.mediaType);
  return withFilename({ mediaType, data: fileId, source: 'file-id' }, hints);
}

function withFilename(attachment: Attachment, hints: AttachmentHints): Attachment {
  return hints.filename === undefined ? attachment : { ...attachment, filename: hints.filename };
}

function preview(value: string): string {
  return value.length > 40 ? `${value.slice(0, 40)}…` : value;
}
