/**
 * `executeValidation`: parses a final answer and runs the generation's validators (all of
 * them, in order; their messages accumulate). A validator that throws ends the prompt.
 */
import type { OutputParser, ParseOutcome } from './output-parser.js';
import type { PromptContext } from './prompt-context.js';
import { checkPromptRuntime } from './prompt-context.js';

/** Options of {@link executeValidation}. */
export interface ExecuteValidationOptions<T> {
  runtime: PromptContext;
  parser: OutputParser<T>;
}

/**
 * Validates `rawText`.
 * @throws InvalidPromptRuntimeError for a runtime that is not the active policy's; a validator's error
 */
export async function executeValidation<T>(
  rawText: string,
  options: ExecuteValidationOptions<T>,
): Promise<ParseOutcome<T>> {
  return validateOutput(rawText, options);
}

/**
 * {@link executeValidation} for the preset loop: the outcome itself when the generation has no
 * validator (the usual case), so the loop's turn pays no promise for it.
 * @throws InvalidPromptRuntimeError for a runtime that is not the active policy's; a validator's error
 */
export function validateOutput<T>(
  rawText: string,
  options: ExecuteValidationOptions<T>,
): ParseOutcome<T> | Promise<ParseOutcome<T>> {
  checkPromptRuntime('executeValidation', options?.runtime);
  const parsed = options.parser.parse(rawText);
  if (!parsed.ok || options.runtime.validators.length === 0) return parsed;
  return runValidators(parsed, options.runtime.validators);
}

async function runValidators<T>(
  parsed: ParseOutcome<T> & { ok: true },
  validators: PromptContext['validators'],
): Promise<ParseOutcome<T>> {
  const issues: string[] = [];
  for (const validator of validators) {
    const verdict = await validator(parsed.data);
    if (verdict === true) continue;
    issues.push(verdict === false ? 'Validation failed' : verdict);
  }
  if (issues.length === 0) return parsed;
  return { ok: false, failureType: 'validator', issues, data: parsed.data };
}
