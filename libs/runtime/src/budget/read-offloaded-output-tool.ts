import { z } from 'zod';
import { OffloadedOutputNotFoundError } from '../errors/budget-errors.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { READ_OFFLOADED_OUTPUT } from './offload-tool-results.js';
import type { OffloadedOutputs } from './offloaded-outputs.js';

/** The most characters one `read_offloaded_output` call returns. */
export const MAX_OFFLOADED_READ = 8000;

const parameters = z.object({
  id: z
    .string()
    .regex(
      /^[0-9a-f]{64}$/,
      'an output id is 64 hex characters, as in the "offloaded as output <id>" marker',
    ),
  offset: z.number().int().min(0).default(0).describe('First character to read (0-based).'),
  length: z
    .number()
    .int()
    .min(1)
    .max(MAX_OFFLOADED_READ)
    .default(2000)
    .describe(`How many characters to read (at most ${MAX_OFFLOADED_READ}).`),
});

/**
 * `read_offloaded_output({ id, offset, length })`: a page of a tool output that was offloaded
 * (`offloadToolResultsOver`). Answers `{ id, offset, length, total, content }` plus
 * `nextOffset` while there is more; an unknown id fails with {@link OffloadedOutputNotFoundError}
 * (returned to the model as the tool's error). Its own results are never offloaded.
 */
export function readOffloadedOutputTool(outputs: OffloadedOutputs): ToolDefinition<typeof parameters> {
  return {
    name: READ_OFFLOADED_OUTPUT,
    description:
      'Reads part of a large tool output that was stored outside the conversation. The conversation ' +
      'shows its head and tail around a marker "[… offloaded as output <id> …]"; pass that id with ' +
      'an offset and a length to read the characters in between.',
    parameters,
    handler: async ({ id, offset, length }) => {
      const text = await outputs.get(id);
      if (text === undefined) throw new OffloadedOutputNotFoundError(id);
      const content = text.slice(offset, offset + length);
      const end = offset + content.length;
      return {
        id,
        offset,
        length: content.length,
        total: text.length,
        content,
        ...(end < text.length ? { nextOffset: end } : {}),
      };
    },
  };
}
