import { createAgent, equipInstruction, equipSystem, equipTool, promptAgent } from '@flotilla/runtime';
import { z } from 'zod';
import { HeadlineAgent } from './headline-agent.js';
import { searchNotesTool } from './search-notes-tool.js';

/** The model id the research agent asks for; the worker (or `runAgent`) maps it to an adapter. */
export const RESEARCH_MODEL_ID = 'research-model';

/** What the model must answer after searching. */
export const FindingSchema = z.object({
  answer: z.string().min(1),
  sources: z.array(z.string()).describe('ids of the notes the answer comes from'),
});

/** What {@link ResearchAgent} returns. */
export const ResultSchema = FindingSchema.extend({ headline: z.string() });

/** The research agent's result. */
export type ResearchResult = z.infer<typeof ResultSchema>;

/**
 * The seed-style agent: a system prompt, a tool with a zod schema, a structured answer from
 * `promptAgent(FindingSchema)`, then a child agent call ({@link HeadlineAgent}) whose answer
 * joins the result.
 * @example
 * const result = await runAgent(ResearchAgent, { question: 'How do runs survive a crash?' }, {
 *   models: { [RESEARCH_MODEL_ID]: createResearchModel() },
 * });
 */
export const ResearchAgent = createAgent({
  id: 'research',
  model: RESEARCH_MODEL_ID,
  handler: async ({ question }: { question: string }): Promise<ResearchResult> => {
    equipSystem(
      'You are a careful research assistant. Search the notes first, answer from them only, and cite note ids.',
    );
    equipInstruction(`Question: ${question}`);
    equipTool(searchNotesTool);
    const finding = await promptAgent(FindingSchema);
    const { headline } = await HeadlineAgent({ answer: finding.answer });
    return { ...finding, headline };
  },
});
