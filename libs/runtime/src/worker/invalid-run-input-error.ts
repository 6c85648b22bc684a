/**
 * A job's data is not a run: `input` is missing or not JSON text, or `conversationId` /
 * `scope` have the wrong type. Happens when something other than `createClient().submit`
 * adds jobs to the agents queue. The run fails; the worker keeps serving.
 */
export class InvalidRunInputError extends Error {
  override readonly name = 'InvalidRunInputError';

  constructor(problem: string) {
    super(`The job is not a valid run: ${problem}. Submit runs with createClient().submit(agentId, input).`);
  }

  static is(error: unknown): error is InvalidRunInputError {
    return error instanceof Error && error.name === 'InvalidRunInputError';
  }
}
