import { errorGuard, FlotillaError } from '@flotilla/ir';

/** Thrown by {@link ConversationStore.load} when asked for a version the conversation never reached. */
export class ConversationVersionNotFoundError extends FlotillaError {
  static override readonly errorName = 'ConversationVersionNotFoundError';
  static override readonly is = errorGuard(this);
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
}
