import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A job's data is not a run: `input` is missing or not JSON text, or `conversationId` /
 * `scope` have the wrong type. Happens when something other than `createClient().submit`
 * adds jobs to the agents queue. The run fails; the worker keeps serving.
 */
export class InvalidRunInputError extends FlotillaError {
  static override readonly errorName = 'InvalidRunInputError';
  static override readonly is = errorGuard(this);

  constructor(problem: string) {
    super(`The job is not a valid run: ${problem}. Submit runs with createClient().submit(agentId, input).`);
  }
}
