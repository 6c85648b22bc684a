/**
 * Test support for the IR suites (kept out of the package build): runs code that must refuse its
 * input and returns the `IRValidationError` it threw, so a test can check `path` and `message`.
 */
import { IRValidationError } from '../errors.js';

/** The `IRValidationError` `run` throws; fails the test when it throws nothing or something else. */
export function validationRejection(run: () => unknown): IRValidationError {
  try {
    run();
  } catch (error) {
    if (IRValidationError.is(error)) return error;
    throw error;
  }
  throw new Error('the input was accepted, but it should have been refused');
}
