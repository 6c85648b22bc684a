/** A small agent for replay tests: adds two numbers with a tool, answers `{ sum }`. */
import { z } from 'zod';
import { createAgent } from '../../agent/create-agent.js';
import { equipInstruction } from '../../hooks/equip-instruction.js';
import { equipTool } from '../../hooks/equip-tool.js';
import { promptAgent } from '../../policy/prompt-agent.js';

export const toolRuns: { a: number; b: number }[] = [];

export const AdderAgent = createAgent({
  id: 'adder',
  model: 'mock',
  handler: async ({ a, b }: { a: number; b: number }) => {
    equipInstruction(`Add ${a} and ${b} with the add tool.`);
    equipTool({
      name: 'add',
      description: 'Adds two numbers',
      parameters: z.object({ a: z.number(), b: z.number() }),
      handler: (args) => {
        toolRuns.push(args);
        return args.a + args.b;
      },
    });
    return promptAgent(z.object({ sum: z.number() }));
  },
});
