import { errorGuard, FlotillaError } from '@flotilla/ir';

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
