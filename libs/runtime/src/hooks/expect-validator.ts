import type { z } from 'zod';
import type { OutputValidator } from '../context/output-validator.js';
import { requireOpenDraft } from './require-draft.js';

/**
 * Adds an output check for this generation's policy; every validator runs, in order, and all
 * their messages are fed back to the model on retry. The optional schema only types `data`.
 * @throws ContextNotFoundError outside an agent run; AfterPromptAgentError after the policy started
 */
export function expectValidator<S extends z.ZodType>(schema: S, validator: OutputValidator<z.infer<S>>): void;
export function expectValidator(validator: OutputValidator): void;
export function expectValidator(first: unknown, second?: unknown): void {
  const validator = (second ?? first) as OutputValidator;
  requireOpenDraft('expectValidator').draft.validators.push(validator);
}
