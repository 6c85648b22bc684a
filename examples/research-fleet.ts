/**
 * An agent module for the worker app (`FLOTILLA_AGENTS=./examples/dist/research-fleet.js`):
 * the research agent and its child, with the scripted research model, so a worker serves them
 * without any API key. A real deployment exports a real adapter under the same model id.
 */

import type { AnyAgent, ModelAdapter } from '@flotilla/runtime';
import { HeadlineAgent } from './agents/headline-agent.js';
import { RESEARCH_MODEL_ID, ResearchAgent } from './agents/research-agent.js';
import { createResearchModel } from './models/research-model.js';

/** The agents a worker loading this module serves, by id. */
export const agents: AnyAgent[] = [ResearchAgent, HeadlineAgent];

/** The model ids the agents name. */
export const models: Record<string, ModelAdapter> = { [RESEARCH_MODEL_ID]: createResearchModel() };
