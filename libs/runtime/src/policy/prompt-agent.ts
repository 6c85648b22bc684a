import type { z } from 'zod';
import { zodToJsonSchema } from '../tools/zod-to-json-schema.js';
import { createAgentPolicy } from './create-agent-policy.js';
import { createJsonOutputParser } from './json-output-parser.js';
import { runToolCallLoop } from './tool-call-loop.js';

const promptAgentPolicy = createAgentPolicy({
  policyId: 'promptAgent',
  handler: async (runtime, schema: z.ZodType) => {
    const jsonSchema = zodToJsonSchema(schema, 'promptAgent');
    const { data } = await runToolCallLoop({
      runtime,
      messages: runtime.messages,
      parser: createJsonOutputParser(schema),
      schema: { name: 'result', jsonSchema },
    });
    return data;
  },
});

/**
 * Prompts the model with this generation's system prompts, instructions and tools, runs the
 * tool loop, and returns the answer parsed and validated with `schema` (zod defaults applied).
 * Once per generation.
 * @throws PromptAgentAlreadyCalledError, ModelNotFoundError, AttemptsExhaustedError,
 *   ToolLoopExceededError, TurnBudgetExceededError, SchemaConversionError, model errors
 * @example
 * equipInstruction('Name three colours.');
 * const { colours } = await promptAgent(z.object({ colours: z.array(z.string()) }));
 */
export function promptAgent<S extends z.ZodType>(schema: S): Promise<z.infer<S>> {
  // Not async: the policy's own promise is the answer (an async wrapper adds three).
  return promptAgentPolicy(schema) as Promise<z.infer<S>>;
}
