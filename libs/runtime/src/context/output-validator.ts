/**
 * A check on the policy's parsed output, run after parsing and schema validation: `true`
 * passes, a string is an error message fed back to the model, `false` means "Validation
 * failed". A validator that throws ends the prompt (no retry).
 */
export type OutputValidator<T = unknown> = (data: T) => boolean | string | Promise<boolean | string>;
