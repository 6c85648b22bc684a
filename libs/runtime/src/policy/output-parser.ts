/**
 * Turns a model's final text into the policy's result, or explains what is wrong so the
 * model can fix it on the next attempt.
 */
import type { ValidationFailureType } from '../errors/policy-errors.js';

/** What a parser (and then validation) found. */
export type ParseOutcome<T> =
  | { ok: true; data: T }
  | { ok: false; failureType: ValidationFailureType; issues: string[]; data?: unknown };

/** A parser of final model text. */
export interface OutputParser<T> {
  id: string;
  parse(text: string): ParseOutcome<T>;
}

/** The identity parser: the text is the result (`promptChat` without a schema). */
export const textOutputParser: OutputParser<string> = {
  id: 'text',
  parse: (text) => ({ ok: true, data: text }),
};
