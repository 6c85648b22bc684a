import { checkJsonBounds } from '@flotilla/runtime/internals';
import { MAX_JSON_DEPTH_CEILING } from '@flotilla/runtime/worker';

/**
 * The JSON text of tool-call arguments a provider sent as an object (Gemini `args`, Anthropic
 * `input`). A provider's JSON can be nested deeper than JSON.stringify can write: past the
 * highest depth any run accepts this throws `ValueTooDeepError` naming the provider, instead of a
 * bare RangeError; the run's own (lower) limit is applied by the runtime's model-answer check.
 */
export function toolArgumentsText(args: unknown, provider: string): string {
  checkJsonBounds(
    args,
    `the arguments of a tool call from ${provider}`,
    { maxDepth: MAX_JSON_DEPTH_CEILING, maxBytes: Number.POSITIVE_INFINITY },
    { lenient: true },
  );
  return JSON.stringify(args);
}
