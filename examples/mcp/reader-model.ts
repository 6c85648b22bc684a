import type { Message } from '@flotilla/ir';
import type { ModelRequest, ModelResponse } from '@flotilla/runtime';
import { createMockModel, type MockModel } from '@flotilla/runtime/testing';

/** The model id the reader agent asks for. */
export const READER_MODEL_ID = 'mcp-reader-model';

/** The tool the model calls, by its MCP name (the agent may put a namespace in front). */
const READ_TOOL = 'read_text_file';

const USAGE = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

/**
 * A scripted stand-in for a real model, so the reader example runs without an API key. Asked
 * to `Read the file <path>`, it calls the equipped tool whose name ends with `read_text_file`
 * (`fs_read_text_file` with the example's namespace); given the tool's result, it answers with
 * the file's `# ` title and its `- ` items as JSON. Every request is recorded in `calls`.
 */
export function createReaderModel(): MockModel {
  const model = createMockModel({ id: READER_MODEL_ID });
  model.when(() => true).thenDo(answerReaderRequest);
  return model;
}

/** The answer {@link createReaderModel} gives to `request`. */
export function answerReaderRequest(request: ModelRequest): ModelResponse {
  const { messages } = request;
  const last = messages.at(-1);
  if (last?.role === 'tool')
    return {
      message: { role: 'assistant', content: summarize(messages, last) },
      usage: USAGE,
      finishReason: { unified: 'stop', raw: 'stop' },
    };
  const path = /Read the file (\S+)/.exec(lastUserText(messages))?.[1];
  const tool = request.tools?.find((candidate) => candidate.name.endsWith(READ_TOOL));
  if (!path || !tool) {
    throw new Error(`The reader model needs "Read the file <path>" and a *${READ_TOOL} tool.`);
  }
  const toolCall = {
    id: `call_read_${messages.length}`,
    type: 'function' as const,
    function: { name: tool.name, arguments: JSON.stringify({ path }) },
  };
  return {
    message: { role: 'assistant', content: '', tool_calls: [toolCall] },
    usage: USAGE,
    finishReason: { unified: 'tool_calls', raw: 'tool_calls' },
  };
}

function summarize(messages: Message[], toolResult: Message): string {
  const path = /Read the file (\S+)/.exec(lastUserText(messages))?.[1] ?? '';
  const lines = toolResult.content.split('\n');
  const title = lines.find((line) => line.startsWith('# '))?.slice(2) ?? '';
  const items = lines.filter((line) => line.startsWith('- ')).map((line) => line.slice(2));
  return JSON.stringify({ path, title, items });
}

function lastUserText(messages: Message[]): string {
  return messages.findLast((message) => message.role === 'user')?.content ?? '';
}
