import { attachmentFromFileId, attachmentFromUrl } from '../input/attachment-from-reference.js';
import type { Attachment } from '../types/attachment.js';
import {
  expectArray,
  expectOneOf,
  expectRecord,
  expectString,
  type InputRecord,
  optionalString,
} from '../validation/expect-value.js';
import { inputPath } from '../validation/input-path.js';

/** What an Anthropic `document` block contributes: attachments, plus text for `content` sources. */
export interface AnthropicDocumentContent {
  text: string[];
  attachments: Attachment[];
}

/**
 * Reads an Anthropic `image` block (`block` is at `path`) into a normalised attachment: a
 * base64 source keeps its media type and raw base64; a URL source is `source: 'url'` (media
 * type from the extension, else `image/*`); a Files API source is `source: 'file-id'`.
 * @throws {IRValidationError} naming the path when the source does not fit.
 */
export function readAnthropicImage(block: InputRecord, path: string): Attachment {
  const sourcePath = inputPath(path, 'source');
  const source = expectRecord(block.source, sourcePath, 'an image source object');
  const type = expectOneOf(source.type, inputPath(sourcePath, 'type'), ['base64', 'url', 'file']);
  if (type === 'base64') return readBase64Source(source, sourcePath);
  if (type === 'url') return readUrlSource(source, sourcePath, 'image/*');
  return readFileSource(source, sourcePath, 'image/*');
}

/**
 * Reads an Anthropic `document` block: base64 / URL / file sources become one attachment (a URL
 * document is a PDF unless its extension says otherwise; a file id is
 * `application/octet-stream`); a plain-text source becomes a `text/plain` base64 attachment;
 * a `content` source contributes its text blocks as text and its images as attachments. The
 * block's `title` becomes the attachment's `filename`.
 * @throws {IRValidationError} naming the path when the source does not fit.
 */
export function readAnthropicDocument(block: InputRecord, path: string): AnthropicDocumentContent {
  const filename = optionalString(block.title, inputPath(path, 'title'));
  const sourcePath = inputPath(path, 'source');
  const source = expectRecord(block.source, sourcePath, 'a document source object');
  const types = ['base64', 'url', 'file', 'text', 'content'] as const;
  const type = expectOneOf(source.type, inputPath(sourcePath, 'type'), types);
  if (type === 'content') return readContentSource(source, sourcePath);
  const attachment =
    type === 'base64'
      ? readBase64Source(source, sourcePath)
      : type === 'url'
        ? readUrlSource(source, sourcePath, 'application/pdf')
        : type === 'file'
          ? readFileSource(source, sourcePath, 'application/octet-stream')
          : readPlainTextSource(source, sourcePath);
  return { text: [], attachments: [filename === undefined ? attachment : { ...attachment, filename }] };
}

function readBase64Source(source: InputRecord, path: string): Attachment {
  return {
    mediaType: expectString(source.media_type, inputPath(path, 'media_type')),
    data: expectString(source.data, inputPath(path, 'data'), 'raw base64'),
    source: 'base64',
  };
}

function readUrlSource(source: InputRecord, path: string, mediaType: string): Attachment {
  const url = expectString(source.url, inputPath(path, 'url'), 'an http(s) URL');
  return attachmentFromUrl(url, inputPath(path, 'url'), { mediaType });
}

function readFileSource(source: InputRecord, path: string, mediaType: string): Attachment {
  return attachmentFromFileId(expectString(source.file_id, inputPath(path, 'file_id')), { mediaType });
}

/** The IR keeps bytes as base64, so the document's text is encoded (UTF-8) rather than inlined. */
function readPlainTextSource(source: InputRecord, path: string): Attachment {
  const text = expectString(source.data, inputPath(path, 'data'));
  const mediaType = optionalString(source.media_type, inputPath(path, 'media_type')) ?? 'text/plain';
  return { mediaType, data: Buffer.from(text, 'utf8').toString('base64'), source: 'base64' };
}

function readContentSource(source: InputRecord, path: string): AnthropicDocumentContent {
  const contentPath = inputPath(path, 'content');
  if (typeof source.content === 'string') return { text: [source.content], attachments: [] };
  const result: AnthropicDocumentContent = { text: [], attachments: [] };
  const blocks = expectArray(source.content, contentPath, 'a string or an array of content blocks');
  blocks.forEach((value, index) => {
    const blockPath = inputPath(contentPath, index);
    const block = expectRecord(value, blockPath, 'a content block object');
    const type = expectString(block.type, inputPath(blockPath, 'type'));
    if (type === 'text') result.text.push(expectString(block.text, inputPath(blockPath, 'text')));
    if (type === 'image') result.attachments.push(readAnthropicImage(block, blockPath));
  });
  return result;
}
