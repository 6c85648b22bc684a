/** Media types whose bytes are text a model can read. */
const TEXT_TYPE = /^(text\/|application\/(json|xml|yaml|x-yaml|javascript|x-ndjson)\b|[^;]*\+(json|xml)\b)/i;

/**
 * The text of a base64 blob when its media type says it is text (`text/*`, JSON, XML, YAML),
 * else `undefined`. MCP servers send text files as blobs too; decoding them lets the model read
 * them instead of a label.
 */
export function decodeTextBlob(blob: string, mimeType: string | undefined): string | undefined {
  if (!mimeType || !TEXT_TYPE.test(mimeType)) return undefined;
  return Buffer.from(blob, 'base64').toString('utf8');
}
