/**
 * Thrown by {@link createMockModel}'s `generate` when no sequence step, rule or default answers
 * the request. The message carries the last user text so a failing test shows what was asked.
 */
export class MockModelNoRuleError extends Error {
  override readonly name = 'MockModelNoRuleError';
  /** The text of the last user message of the unanswered request (`''` when there is none). */
  readonly lastUserText: string;

  constructor(lastUserText: string) {
    const asked = lastUserText ? ` (last user message: ${JSON.stringify(truncate(lastUserText))})` : '';
    super(
      `No matching rule found${asked}. Use mock.when(...), mock.sequence(...), or mock.setDefaultResponse(...).`,
    );
    this.lastUserText = lastUserText;
  }

  static is(error: unknown): error is MockModelNoRuleError {
    return error instanceof Error && error.name === 'MockModelNoRuleError';
  }
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
