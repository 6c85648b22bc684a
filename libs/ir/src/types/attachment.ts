/**
 * Media attached to a message (an image, a PDF, audio …).
 *
 * Input adapters normalise `data` so that every target can emit its exact wire form:
 * - `source: 'base64'`: `data` is raw base64 (a `data:` URL is split into `mediaType` + base64);
 * - `source: 'url'`: `data` is an `http(s)://` or `gs://` URL;
 * - `source: 'file-id'`: `data` is a provider file id (e.g. OpenAI `file-…`).
 * When `source` is absent (IR built by hand), {@link resolveAttachment} infers it from `data`.
 */
export interface Attachment {
  mediaType: string;
  data: string;
  source?: AttachmentSource;
  filename?: string;
  /**
   * How closely an OpenAI model looks at an image (`image_url.detail` in Chat Completions,
   * `input_image.detail` in Responses). Only those two targets send it, and only on images;
   * Chat Completions has no `'original'`, so it sends nothing for that value (the API's
   * default). Anthropic and Gemini have no such setting: they leave it out, as they leave
   * out a hint like `filename` on images.
   */
  detail?: ImageDetail;
}

export type AttachmentSource = 'base64' | 'url' | 'file-id';

/** The `detail` values OpenAI takes for images (`'original'`: Responses only). */
export type ImageDetail = 'auto' | 'low' | 'high' | 'original';

/** Every {@link ImageDetail}, for validation. */
export const IMAGE_DETAILS: readonly ImageDetail[] = ['auto', 'low', 'high', 'original'];

/** What every {@link ResolvedAttachment} carries besides its bytes or address. */
interface ResolvedAttachmentBase {
  mediaType: string;
  filename?: string;
  detail?: ImageDetail;
}

/** An attachment with its encoding made explicit; what targets switch on. */
export type ResolvedAttachment =
  | (ResolvedAttachmentBase & { source: 'base64'; base64: string })
  | (ResolvedAttachmentBase & { source: 'url'; url: string })
  | (ResolvedAttachmentBase & { source: 'file-id'; fileId: string });

const DATA_URL = /^data:([^;,]*)(?:;[^,]*)?;base64,(.*)$/s;
const URL_SCHEME = /^(https?:|gs:)\/\//i;

/** Splits a `data:<type>;base64,<data>` URL; `undefined` for anything else. */
export function parseDataUrl(value: string): { mediaType: string; base64: string } | undefined {
  const match = DATA_URL.exec(value);
  if (!match) return undefined;
  return { mediaType: match[1] || 'application/octet-stream', base64: match[2] ?? '' };
}

/** `data:<mediaType>;base64,<base64>` */
export function toDataUrl(mediaType: string, base64: string): string {
  return `data:${mediaType};base64,${base64}`;
}

/** Makes an attachment's encoding explicit, inferring it from `data` when `source` is absent. */
export function resolveAttachment(attachment: Attachment): ResolvedAttachment {
  const extras = {
    ...(attachment.filename === undefined ? {} : { filename: attachment.filename }),
    ...(attachment.detail === undefined ? {} : { detail: attachment.detail }),
  };
  const source = attachment.source ?? inferSource(attachment.data);
  if (source === 'url') return { source, mediaType: attachment.mediaType, url: attachment.data, ...extras };
  if (source === 'file-id')
    return { source, mediaType: attachment.mediaType, fileId: attachment.data, ...extras };
  const dataUrl = parseDataUrl(attachment.data);
  return dataUrl
    ? {
        source: 'base64',
        mediaType: attachment.mediaType || dataUrl.mediaType,
        base64: dataUrl.base64,
        ...extras,
      }
    : { source: 'base64', mediaType: attachment.mediaType, base64: attachment.data, ...extras };
}

function inferSource(data: string): AttachmentSource {
  if (URL_SCHEME.test(data)) return 'url';
  return 'base64';
}
