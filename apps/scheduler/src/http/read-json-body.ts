import type { IncomingMessage } from 'node:http';
import { InvalidJsonError, RequestBodyTooLargeError } from '../errors/http-errors.js';

/**
 * Reads the request body, at most `limitBytes`, and parses it as JSON.
 * @throws RequestBodyTooLargeError as soon as the body (or its declared length) passes the limit
 * @throws InvalidJsonError when the body is empty or not JSON
 */
export async function readJsonBody(request: IncomingMessage, limitBytes: number): Promise<unknown> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limitBytes) throw new RequestBodyTooLargeError(limitBytes);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > limitBytes) throw new RequestBodyTooLargeError(limitBytes);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') throw new InvalidJsonError('The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidJsonError(
      `The request body is not JSON (${(error as Error).message}); send a JSON object.`,
    );
  }
}
