import { runAgentWithOutcome } from '@flotilla/runtime';
import type { RunEvent } from '@flotilla/runtime/client';
import { RESEARCH_MODEL_ID, ResearchAgent } from '../agents/research-agent.js';
import { createResearchModel } from '../models/research-model.js';
import { describeEvent } from './describe-event.js';

/** What the embedded part of the demo saw. */
export interface EmbeddedDemoResult {
  output: unknown;
  events: RunEvent[];
}

/**
 * Runs the research agent embedded (in this process, in memory, no Redis) with the scripted
 * research model, printing each step as it happens, then the result and the usage.
 */
export async function runEmbeddedDemo(
  question: string,
  print: (line: string) => void,
): Promise<EmbeddedDemoResult> {
  const events: RunEvent[] = [];
  const outcome = await runAgentWithOutcome(
    ResearchAgent,
    { question },
    {
      models: { [RESEARCH_MODEL_ID]: createResearchModel() },
      onEvent: (event) => {
        events.push(event);
        const line = describeEvent(event);
        if (line !== undefined) print(`  ${line}`);
      },
    },
  );
  print('');
  print('Structured result (validated with the agent’s zod schema):');
  print(indentJson(outcome.output));
  const { promptTokens, completionTokens, totalTokens } = outcome.usage;
  print(
    `Usage: ${outcome.modelCalls} model calls, ${promptTokens} prompt + ${completionTokens} completion = ${totalTokens} tokens`,
  );
  return { output: outcome.output, events };
}

/** `value` as indented JSON, each line indented two more spaces. */
export function indentJson(value: unknown): string {
  return JSON.stringify(value, null, 2)
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}
