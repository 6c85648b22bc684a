/**
 * Multimodal tool results. A tool returns `toolContent([...parts])` to give the model text and
 * images instead of a JSON string; the engine turns the parts into an IR tool message whose
 * text is the joined text parts and whose images are IR attachments.
 */

/** An image by URL: `http(s)://…` or a `data:<type>;base64,…` URL. */
export interface ImageContent {
  url: string;
  detail?: 'auto' | 'low' | 'high';
}

/** A video by URL. Reserved: model adapters may refuse it. */
export interface VideoContent {
  url: string;
}

/** One part of multimodal content. */
export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; image: ImageContent }
  | { type: 'video'; video: VideoContent };

/** The marker key of a {@link ToolContent} object. */
export const TOOL_CONTENT_KEY = '$flotillaContent';

/** A tool result made of content parts (JSON, so it is journaled like any result). */
export interface ToolContent {
  [TOOL_CONTENT_KEY]: ContentPart[];
}

/** Wraps content parts as a multimodal tool result. */
export function toolContent(parts: ContentPart[]): ToolContent {
  return { [TOOL_CONTENT_KEY]: [...parts] };
}

/** Whether `value` was made by {@link toolContent} (an own array under {@link TOOL_CONTENT_KEY}). */
export function isToolContent(value: unknown): value is ToolContent {
  return (
    typeof value === 'object' &&
    value !== null &&
    Object.hasOwn(value, TOOL_CONTENT_KEY) &&
    Array.isArray((value as Record<string, unknown>)[TOOL_CONTENT_KEY])
  );
}

/**
 * The seed API's marker key (`toolContent` of `@rejelly/core`): a result carrying it is read as
 * ours, so tools written for the seed return multimodal content unchanged.
 */
export const SEED_TOOL_CONTENT_KEY = '$rejellyContent';

/** The content parts of a multimodal tool result under our marker or the seed's; else `undefined`. */
export function toolContentParts(value: unknown): ContentPart[] | undefined {
  if (isToolContent(value)) return value[TOOL_CONTENT_KEY];
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, SEED_TOOL_CONTENT_KEY))
    return undefined;
  const parts = (value as Record<string, unknown>)[SEED_TOOL_CONTENT_KEY];
  return Array.isArray(parts) ? (parts as ContentPart[]) : undefined;
}
