/**
 * A local OpenAI-compatible provider for rate limit tests and `bench/rate-limits.mjs`: it
 * answers `POST /v1/chat/completions` (non-streaming) with a short text, counts the requests of
 * every wall-clock second, and answers 429 (`retry-after: 1`) to any request beyond `perSecond`
 * in its second, as a provider enforcing its limit would.
 */
import { createServer } from 'node:http';

/**
 * Starts the provider on a free loopback port.
 * @param {{ perSecond: number, latencyMs?: number }} options
 */
export async function startFakeOpenAIProvider({ perSecond, latencyMs = 0 }) {
  /** Requests per wall-clock second (epoch seconds → count), answered or refused. */
  const perSecondCounts = new Map();
  const stats = { requests: 0, ok: 0, rateLimited: 0 };
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => {
      body += chunk;
    });
    request.on('end', () => {
      stats.requests++;
      const second = Math.floor(Date.now() / 1000);
      const count = (perSecondCounts.get(second) ?? 0) + 1;
      perSecondCounts.set(second, count);
      if (count > perSecond) {
        stats.rateLimited++;
        response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
        response.end(
          JSON.stringify({ error: { message: 'Rate limit reached', type: 'rate_limit_exceeded' } }),
        );
        return;
      }
      stats.ok++;
      let model = 'fake-model';
      try {
        model = JSON.parse(body).model ?? model;
      } catch {}
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: `chatcmpl-${stats.requests}`,
            object: 'chat.completion',
            created: second,
            model,
            choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
            usage: { prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 },
          }),
        );
      }, latencyMs);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    stats,
    /** The busiest wall-clock second's request count. */
    peakPerSecond: () => Math.max(0, ...perSecondCounts.values()),
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}
