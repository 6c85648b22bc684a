/** No conversation has this id. Answered with HTTP 404. */
export class ConversationNotFoundError extends Error {
  override readonly name = 'ConversationNotFoundError';

  readonly conversationId: string;

  constructor(conversationId: string) {
    super(
      `No conversation "${conversationId}": check the id, or submit a run with this conversationId to start it.`,
    );
    this.conversationId = conversationId;
  }

  static is(error: unknown): error is ConversationNotFoundError {
    return error instanceof Error && error.name === 'ConversationNotFoundError';
  }
}
