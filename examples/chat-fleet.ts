/**
 * An agent module for the worker app (`FLOTILLA_AGENTS=./examples/dist/chat-fleet.js`): the chat
 * assistant with its scripted model, so a worker serves it without any API key. A real
 * deployment exports a real adapter under the same model id.
 */

import type { AnyAgent, ModelAdapter } from '@flotilla/runtime';
import { ASSISTANT_MODEL_ID, AssistantAgent } from './agents/assistant-agent.js';
import { createAssistantModel } from './models/assistant-model.js';

/** The agents a worker loading this module serves, by id. */
export const agents: AnyAgent[] = [AssistantAgent];

/** The model ids the agents name. */
export const models: Record<string, ModelAdapter> = { [ASSISTANT_MODEL_ID]: createAssistantModel() };
