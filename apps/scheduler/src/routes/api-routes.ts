import type { ApiRoute } from './api-route.js';
import { cancelRun } from './cancel-run.js';
import { getConversation } from './get-conversation.js';
import { getHealth } from './get-health.js';
import { getRun } from './get-run.js';
import { getWorkers } from './get-workers.js';
import { streamRunEvents } from './stream-run-events.js';
import { submitRun } from './submit-run.js';

/** Every endpoint of the API (besides `GET /openapi.json`). A new endpoint is one file and one line here. */
export const API_ROUTES: readonly ApiRoute[] = [
  getHealth,
  submitRun,
  getRun,
  streamRunEvents,
  cancelRun,
  getConversation,
  getWorkers,
];
