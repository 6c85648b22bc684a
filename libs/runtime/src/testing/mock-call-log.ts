import type { Message, ToolDefinition } from '@flotilla/ir';
import type { ModelRequest, OutputSchema, ToolChoice } from '../model/model-adapter.js';

/** One request the mock received; messages and tools are deep copies taken at call time. */
export interface MockCall {
  /** 0-based position among the calls received since the last `clear()`. */
  index: number;
  messages: Message[];
  tools: ToolDefinition[] | undefined;
  toolChoice: ToolChoice | undefined;
  schema: OutputSchema | undefined;
  /** Whether the caller asked for streaming (`onDelta` given). */
  streamed: boolean;
  /** Epoch ms. */
  at: number;
}

/**
 * Read access to the recorded calls, oldest first. Only the newest `limit` calls are kept (see
 * `MockModelOptions.record`); `count` still counts every call.
 */
export interface MockCalls {
  /** The kept calls, oldest first. */
  readonly all: readonly MockCall[];
  /** Calls received since the last `clear()`, kept or not. */
  readonly count: number;
  /** The oldest kept call. */
  readonly first: MockCall | undefined;
  readonly last: MockCall | undefined;
  /** Forgets every recorded call; indexes start again at 0. */
  clear(): void;
}

/** How many calls a mock keeps by default: enough for any test, bounded for a long-lived mock. */
export const DEFAULT_MOCK_CALL_LIMIT = 500;

/**
 * Records each request as it arrives, so later mutations by the caller do not show. Keeps the
 * newest `limit` calls (a deep copy is ~270 B plus the messages), so a mock serving as a
 * no-key model in a long-running worker does not grow without end.
 */
export class MockCallLog implements MockCalls {
  private readonly calls: MockCall[] = [];
  private received = 0;
  private readonly limit: number;

  /** @param limit calls kept (0 keeps none). @default DEFAULT_MOCK_CALL_LIMIT */
  constructor(limit = DEFAULT_MOCK_CALL_LIMIT) {
    this.limit = limit;
  }

  /** Records `request` and returns its call (kept only while among the newest `limit`). */
  record(request: ModelRequest): MockCall {
    const index = this.received++;
    if (this.limit === 0) return this.unrecorded(index, request);
    const call: MockCall = {
      index,
      messages: structuredClone(request.messages),
      tools: request.tools ? structuredClone(request.tools) : undefined,
      toolChoice: request.toolChoice ? structuredClone(request.toolChoice) : undefined,
      schema: request.schema ? structuredClone(request.schema) : undefined,
      streamed: request.onDelta !== undefined,
      at: Date.now(),
    };
    this.calls.push(call);
    if (this.calls.length > this.limit) this.calls.shift();
    return call;
  }

  /** A call with no copies: recording is off. */
  private unrecorded(index: number, request: ModelRequest): MockCall {
    return {
      index,
      messages: [],
      tools: undefined,
      toolChoice: undefined,
      schema: undefined,
      streamed: request.onDelta !== undefined,
      at: Date.now(),
    };
  }

  get all(): readonly MockCall[] {
    return [...this.calls];
  }

  get count(): number {
    return this.received;
  }

  get first(): MockCall | undefined {
    return this.calls[0];
  }

  get last(): MockCall | undefined {
    return this.calls.at(-1);
  }

  clear(): void {
    this.calls.length = 0;
    this.received = 0;
  }
}
