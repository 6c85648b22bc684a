import {
  InvalidSubmitRequestError,
  parseSubmitRequest as parseSubmission,
  type SubmitRequest,
} from '@flotilla/runtime/client';
import { InvalidRequestError } from '../errors/http-errors.js';

/** The body of `POST /runs`: a submission, as the runtime's `submitRequestSchema` defines it. */
export type SubmitRunRequest = SubmitRequest;

/**
 * Checks a parsed `POST /runs` body by the same schema `client.submit` uses.
 * @throws InvalidRequestError naming the first field that is wrong
 */
export function parseSubmitRequest(body: unknown): SubmitRunRequest {
  try {
    return parseSubmission(body);
  } catch (error) {
    if (InvalidSubmitRequestError.is(error)) throw new InvalidRequestError(error.message);
    throw error;
  }
}
