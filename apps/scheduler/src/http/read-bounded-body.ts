import { ValueTooDeepError } from '@flotilla/runtime';
import type { JsonLimits } from '@flotilla/runtime/client';
import { parseBoundedJson } from '@flotilla/runtime/internals';
import type { MiddlewareHandler } from 'hono';
import {
  InvalidJsonError,
  RequestBodyTooLargeError,
  RequestTimeoutError,
  UnsupportedMediaTypeError,
} from '../errors/http-errors.js';
import type { ApiEnv } from './api-env.js';

/** Room in a body for the fields around `input` (ids, scope, whitespace) over the payload limit. */
export const BODY_ENVELOPE_BYTES = 64 * 1024;

/** Options of {@link readBoundedBody}. */
export interface BodyLimits extends JsonLimits {
  /** The whole body must arrive within this many ms (a slow or stalled sender is cut off). */
  timeoutMs: number;
}

/**
 * Reads every request body before a route sees it, within bounds: JSON only (415 otherwise),
 * at most `maxBytes + BODY_ENVELOPE_BYTES` bytes also when chunked (413), within `timeoutMs`
 * (408), nested at most `maxDepth` (400 naming the depth limit, before anything recursive
 * touches it) and valid JSON (400). The text is then handed to the route's validator. A
 * request without a body passes untouched.
 */
export function readBoundedBody(limits: BodyLimits): MiddlewareHandler<ApiEnv> {
  const maxBodyBytes = limits.maxBytes + BODY_ENVELOPE_BYTES;
  return async (c, next) => {
    const declared = c.req.header('content-length');
    // HTTP/1.1: a request has a body only with a Content-Length or a Transfer-Encoding (chunked).
    const hasBody =
      c.req.raw.body !== null &&
      ((declared !== undefined && declared !== '0') || c.req.header('transfer-encoding') !== undefined);
    const contentType = c.req.header('content-type');
    // No body: routes that need one refuse it in their validator (400); others do not care.
    if (!hasBody) return next();
    if (!isJson(contentType)) throw new UnsupportedMediaTypeError(contentType);
    if (declared !== undefined && Number(declared) > maxBodyBytes)
      throw new RequestBodyTooLargeError(maxBodyBytes);
    const text = await readText(c.req.raw.body as ReadableStream<Uint8Array>, maxBodyBytes, limits.timeoutMs);
    if (text.trim() === '') throw new InvalidJsonError('The request body is empty; send a JSON object.');
    try {
      parseBoundedJson(text, 'the request body', { maxBytes: maxBodyBytes, maxDepth: limits.maxDepth });
    } catch (error) {
      if (ValueTooDeepError.is(error)) throw error;
      throw new InvalidJsonError(
        `The request body is not JSON (${(error as Error).message.slice(0, 200)}); send a JSON object.`,
      );
    }
    // Hono's validator parses the body from this cache instead of reading the stream again.
    (c.req.bodyCache as Record<string, Promise<unknown>>).text = Promise.resolve(text);
    return next();
  };
}

/** Whether a Content-Type is `application/json` (parameters such as `charset` allowed). */
function isJson(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

async function readText(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
  timeoutMs: number,
): Promise<string> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new RequestTimeoutError(timeoutMs)), timeoutMs);
  });
  try {
    for (;;) {
      const { done, value } = await Promise.race([reader.read(), deadline]);
      if (done) break;
      length += value.byteLength;
      if (length > maxBytes) throw new RequestBodyTooLargeError(maxBytes);
      chunks.push(value);
    }
  } catch (error) {
    reader.cancel().catch(() => undefined);
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
