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

/**
 * Thrown when a stored conversation fails validation on load (a message that is not valid IR,
 * a header or version entry that does not parse, a missing media blob). Names the conversation
 * and, when one message is at fault, its index, so the entry can be inspected or repaired.
 */
export class ConversationCorruptedError extends FlotillaError {
  static override readonly errorName = 'ConversationCorruptedError';
  static override readonly is = errorGuard(this);
  readonly conversationId: string;
  /** Index of the faulty message in the message log; `undefined` when the header is at fault. */
  readonly index: number | undefined;

  constructor(conversationId: string, index: number | undefined, problem: string) {
    const where = index === undefined ? 'its header' : `message ${index}`;
    super(
      `Conversation "${conversationId}" is corrupted at ${where}: ${problem}. ` +
        'Inspect the stored entry; the conversation cannot be loaded until it is repaired.',
    );
    this.conversationId = conversationId;
    this.index = index;
  }
}

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
