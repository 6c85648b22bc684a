/** Thrown by {@link ConversationStore.load} when asked for a version the conversation never reached. */
export class ConversationVersionNotFoundError extends Error {
  override readonly name = 'ConversationVersionNotFoundError';
  readonly conversationId: string;
  readonly version: number;
  readonly latestVersion: number;

  constructor(conversationId: string, version: number, latestVersion: number) {
    super(
      `Conversation "${conversationId}" has no version ${version}; its versions are 0 to ${latestVersion}. ` +
        'Ask for a version in that range, or omit it for the latest.',
    );
    this.conversationId = conversationId;
    this.version = version;
    this.latestVersion = latestVersion;
  }

  static is(error: unknown): error is ConversationVersionNotFoundError {
    return error instanceof Error && error.name === 'ConversationVersionNotFoundError';
  }
}
