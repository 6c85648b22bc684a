import { createAgent, equipInstruction, equipSystem, promptAgent } from '@flotilla/runtime';
import { z } from 'zod';

/** What {@link HeadlineAgent} returns. */
export const HeadlineSchema = z.object({ headline: z.string().min(1) });

/**
 * A child agent: turns an answer into a one-line headline. It names no model, so it uses the
 * model of the agent that calls it.
 */
export const HeadlineAgent = createAgent({
  id: 'headline',
  handler: async ({ answer }: { answer: string }) => {
    equipSystem('You write headlines: one line, at most ten words.');
    equipInstruction(`Write a headline for: ${answer}`);
    return promptAgent(HeadlineSchema);
  },
});
