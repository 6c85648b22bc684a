import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * Thrown by {@link createMockModel}'s `generate` when no sequence step, rule or default answers
 * the request. The message carries the last user text so a failing test shows what was asked.
 */
export class MockModelNoRuleError extends FlotillaError {
  static override readonly errorName = 'MockModelNoRuleError';
  static override readonly is = errorGuard(this);
  /** The text of the last user message of the unanswered request (`''` when there is none). */
  readonly lastUserText: string;

  constructor(lastUserText: string) {
    const asked = lastUserText ? ` (last user message: ${JSON.stringify(truncate(lastUserText))})` : '';
    super(
      `No matching rule found${asked}. Use mock.when(...), mock.sequence(...), or mock.setDefaultResponse(...).`,
    );
    this.lastUserText = lastUserText;
  }
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
