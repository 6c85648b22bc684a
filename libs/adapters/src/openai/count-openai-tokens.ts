/**
 * A real tokenizer for OpenAI models (`gpt-tokenizer`), chosen by model id: `o200k_base` for
 * the GPT-4o / 4.1 / 4.5 / 5 and o-series families (and any id it does not know, as newer
 * models use it), `cl100k_base` for GPT-4 and GPT-3.5. The encoding is loaded on first use
 * only, so a worker that never counts pays nothing.
 */
import { countMessageTokens, type Message, type ToolDefinition } from '@flotilla/ir';

type Encoding = 'o200k_base' | 'cl100k_base';
type CountText = (text: string) => number;

const loaded = new Map<Encoding, Promise<CountText>>();

/** The encoding of an OpenAI model id. */
export function openAIEncodingOf(modelId: string): Encoding {
  const id = modelId.toLowerCase().replace(/^.*\//, '');
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|chatgpt-4o|o\d)/.test(id)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5|text-embedding-(ada|3))/.test(id)) return 'cl100k_base';
  return 'o200k_base';
}

/** The prompt tokens of `messages` and `tools` on `modelId` (chat framing and fixed attachment weight as in `countMessageTokens`). */
export async function countOpenAITokens(
  modelId: string,
  messages: Message[],
  tools?: ToolDefinition[],
): Promise<number> {
  const countText = await textCounter(openAIEncodingOf(modelId));
  return countMessageTokens(messages, tools, countText);
}

function textCounter(encoding: Encoding): Promise<CountText> {
  let counter = loaded.get(encoding);
  if (!counter) {
    counter =
      encoding === 'cl100k_base'
        ? import('gpt-tokenizer/encoding/cl100k_base').then(
            (module) => (text: string) => module.countTokens(text),
          )
        : import('gpt-tokenizer/encoding/o200k_base').then(
            (module) => (text: string) => module.countTokens(text),
          );
    loaded.set(encoding, counter);
  }
  return counter;
}
