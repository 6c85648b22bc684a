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

/** A run's input is larger than the worker accepts (`maxPayloadBytes`). The run fails. */
export class PayloadTooLargeError extends FlotillaError {
  static override readonly errorName = 'PayloadTooLargeError';
  static override readonly is = errorGuard(this);
  readonly bytes: number;
  readonly maxBytes: number;

  constructor(bytes: number, maxBytes: number) {
    super(
      `The run input is ${bytes} bytes of JSON; workers accept at most ${maxBytes}. Pass large content by ` +
        'reference (a URL, a conversation id) or raise maxPayloadBytes / FLOTILLA_MAX_PAYLOAD_BYTES.',
    );
    this.bytes = bytes;
    this.maxBytes = maxBytes;
  }
}
