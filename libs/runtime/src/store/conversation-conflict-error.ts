import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * Thrown by {@link ConversationStore.append} when `expectedVersion` is not the stored version:
 * another writer appended first. Reload the conversation, rebuild the change on top of the
 * new version, and append again with the new `expectedVersion`.
 */
export class ConversationConflictError extends FlotillaError {
  static override readonly errorName = 'ConversationConflictError';
  static override readonly is = errorGuard(this);
  readonly conversationId: string;
  readonly expectedVersion: number;
  readonly actualVersion: number;

  constructor(conversationId: string, expectedVersion: number, actualVersion: number) {
    super(
      `Conversation "${conversationId}" is at version ${actualVersion}, not ${expectedVersion}: another writer ` +
        'appended first. Reload it and append again on top of the new version.',
    );
    this.conversationId = conversationId;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }
}
