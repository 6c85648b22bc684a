import type { Message, ToolDefinition } from '@flotilla/ir';
import type { ModelRequest, OutputSchema, ToolChoice } from '../model/model-adapter.js';

/** One request the mock received; messages and tools are deep copies taken at call time. */
export interface MockCall {
  /** 0-based position among the calls recorded since the last `clear()`. */
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

/** Read access to the recorded calls, oldest first. */
export interface MockCalls {
  readonly all: readonly MockCall[];
  readonly count: number;
  readonly first: MockCall | undefined;
  readonly last: MockCall | undefined;
  /** Forgets every recorded call; indexes start again at 0. */
  clear(): void;
}

/** Records each request as it arrives, so later mutations by the caller do not show. */
export class MockCallLog implements MockCalls {
  private readonly calls: MockCall[] = [];

  record(request: ModelRequest): MockCall {
    const call: MockCall = {
      index: this.calls.length,
      messages: structuredClone(request.messages),
      tools: request.tools ? structuredClone(request.tools) : undefined,
      toolChoice: request.toolChoice ? structuredClone(request.toolChoice) : undefined,
      schema: request.schema ? structuredClone(request.schema) : undefined,
      streamed: request.onDelta !== undefined,
      at: Date.now(),
    };
    this.calls.push(call);
    return call;
  }

  get all(): readonly MockCall[] {
    return [...this.calls];
  }

  get count(): number {
    return this.calls.length;
  }

  get first(): MockCall | undefined {
    return this.calls[0];
  }

  get last(): MockCall | undefined {
    return this.calls.at(-1);
  }

  clear(): void {
    this.calls.length = 0;
  }
}
