import { answerApproval } from './answer-approval.js';
import type { ApiRoute } from './api-route.js';
import { cancelRun } from './cancel-run.js';
import { compileConversation } from './compile-conversation.js';
import { createSchedule } from './create-schedule.js';
import { getConversation } from './get-conversation.js';
import { getFleet } from './get-fleet.js';
import { getHealth } from './get-health.js';
import { getMetrics } from './get-metrics.js';
import { getRun } from './get-run.js';
import { getRunExport } from './get-run-export.js';
import { getRunTree } from './get-run-tree.js';
import { getWorkers } from './get-workers.js';
import { listRuns } from './list-runs.js';
import { listSchedules } from './list-schedules.js';
import { removeSchedule } from './remove-schedule.js';
import { sendSignal } from './send-signal.js';
import { streamRunEvents } from './stream-run-events.js';
import { submitRun } from './submit-run.js';

/** Every endpoint of the API (besides `GET /openapi.json`). A new endpoint is one file and one line here. */
export const API_ROUTES: readonly ApiRoute[] = [
  getHealth,
  submitRun,
  listRuns,
  getRun,
  getRunTree,
  getRunExport,
  streamRunEvents,
  cancelRun,
  sendSignal,
  answerApproval,
  getConversation,
  compileConversation,
  getMetrics,
  getWorkers,
  getFleet,
  createSchedule,
  listSchedules,
  removeSchedule,
];
