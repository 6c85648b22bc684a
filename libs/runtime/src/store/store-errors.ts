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

/**
 * A run submitted with `onConflict: 'reject'` found another run holding or waiting for its
 * conversation: it ended `failed` with this error before any model call (no job was queued).
 * Submit again once that run ended, or submit with `onConflict: 'enqueue'` to wait in line.
 */
export class ConversationBusyError extends FlotillaError {
  static override readonly errorName = 'ConversationBusyError';
  static override readonly is = errorGuard(this);
  readonly conversationId: string;
  /** The run that holds the conversation (the first in line). */
  readonly holderRunId: string;

  constructor(conversationId: string, holderRunId: string) {
    super(
      `Conversation "${conversationId}" is busy: run "${holderRunId}" holds it or runs wait for it, and this ` +
        "run was submitted with onConflict: 'reject'. Submit again once it ended, or use onConflict: 'enqueue' " +
        'to run after it.',
    );
    this.conversationId = conversationId;
    this.holderRunId = holderRunId;
  }
}

/**
 * An append was refused because the writing execution does not hold the conversation's lease:
 * another run (or a newer attempt of the same run, after a crash or a takeover) writes the
 * conversation now. The refused execution is stale; its turn is not stored.
 */
export class ConversationLeaseLostError extends FlotillaError {
  static override readonly errorName = 'ConversationLeaseLostError';
  static override readonly is = errorGuard(this);
  readonly conversationId: string;
  /** The run that holds the lease, or `undefined` when nobody does. */
  readonly holderRunId: string | undefined;

  constructor(conversationId: string, writer: string, holderRunId: string | undefined) {
    const holder = holderRunId ? `run "${holderRunId}" holds it` : 'no run holds it';
    super(
      `Append to conversation "${conversationId}" refused: ${writer} does not hold its lease (${holder}). ` +
        'Only the execution the conversation gate let in may append; runs on a conversation go through ' +
        'client.submit with a conversationId.',
    );
    this.conversationId = conversationId;
    this.holderRunId = holderRunId;
  }
}
