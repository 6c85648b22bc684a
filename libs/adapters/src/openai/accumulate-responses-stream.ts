import type { ModelDelta, ModelResponse } from '@flotilla/runtime';
import type { Response, ResponseStreamEvent } from 'openai/resources/responses/responses';
import { providerFailureError } from '../shared/provider-failure-error.js';
import type { ResponsesSite } from './parse-responses-output.js';
import { parseResponsesOutput } from './parse-responses-output.js';

/**
 * Reads a Responses API event stream, reporting text, reasoning-summary and function-call
 * deltas through `onDelta`, and parses the final response carried by the terminal event
 * (`response.completed` / `incomplete` / `failed`). Tool-call delta indexes count function
 * calls only, in output order. Throws a `ModelCallError` on an `error` event or a stream that
 * ends without a terminal event.
 */
export async function accumulateResponsesStream(
  stream: AsyncIterable<ResponseStreamEvent>,
  onDelta: (delta: ModelDelta) => void,
  site: ResponsesSite,
): Promise<ModelResponse> {
  const toolIndexByOutput = new Map<number, number>();
  let final: Response | undefined;
  for await (const event of stream) {
    switch (event.type) {
      case 'response.output_text.delta':
        onDelta({ type: 'text-delta', text: event.delta });
        break;
      case 'response.reasoning_summary_text.delta':
        onDelta({ type: 'reasoning-delta', text: event.delta });
        break;
      case 'response.output_item.added':
        if (event.item.type === 'function_call') {
          const index = toolIndexByOutput.size;
          toolIndexByOutput.set(event.output_index, index);
          onDelta({ type: 'tool-call-delta', index, id: event.item.call_id, name: event.item.name });
        }
        break;
      case 'response.function_call_arguments.delta': {
        const index = toolIndexByOutput.get(event.output_index) ?? 0;
        onDelta({ type: 'tool-call-delta', index, argumentsDelta: event.delta });
        break;
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed':
        final = event.response;
        break;
      case 'error':
        throw streamError(site, `${event.code ?? 'error'}: ${event.message}`, event);
    }
  }
  if (!final) throw streamError(site, 'the stream ended without a response.completed event', undefined);
  return parseResponsesOutput(final, site);
}

function streamError(site: ResponsesSite, detail: string, cause: unknown): Error {
  return providerFailureError({
    ...site,
    endpoint: 'responses',
    status: undefined,
    detail,
    retryAfterSeconds: undefined,
    attempts: 1,
    cause,
  });
}
