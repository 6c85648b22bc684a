/**
 * Test set-up shared by the model adapter suites: one {@link ProviderTestServer} per test file,
 * started before the first test, closed after the last, its recorded requests cleared before
 * each test so `server.requests[0]` is always the current test's first request.
 */
import type { ToolDefinition } from '@flotilla/ir';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type {
  ProviderTestServer,
  ProviderTestServerOptions,
  RecordedRequest,
  TestReply,
} from './provider-test-server.js';
import { startProviderTestServer } from './provider-test-server.js';

/**
 * Registers the server's lifecycle hooks in the calling test file and returns a handle that
 * reaches the running server; use it only inside tests and hooks. With `validate`, requests
 * that break the provider's rules are answered with 400.
 */
export function useProviderTestServer(options: ProviderTestServerOptions = {}): ProviderTestServer {
  let started: ProviderTestServer | undefined;
  beforeAll(async () => {
    started = await startProviderTestServer(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  beforeEach(() => {
    running().requests.length = 0;
  });
  const running = (): ProviderTestServer => {
    if (!started)
      throw new Error('The provider test server is not started yet: use it inside a test or hook.');
    return started;
  };
  return {
    get url(): string {
      return running().url;
    },
    get requests(): RecordedRequest[] {
      return running().requests;
    },
    reply: (...replies: TestReply[]) => running().reply(...replies),
    close: () => running().close(),
  };
}

/** The one tool the model adapter suites offer the model. */
export const weatherTool: ToolDefinition = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
