import { errorGuard, FlotillaError } from '@flotilla/runtime';

/** No conversation has this id. Answered with HTTP 404. */
export class ConversationNotFoundError extends FlotillaError {
  static override readonly errorName = 'ConversationNotFoundError';
  static override readonly is = errorGuard(this);

  readonly conversationId: string;

  constructor(conversationId: string) {
    super(
      `No conversation "${conversationId}": check the id, or submit a run with this conversationId to start it.`,
    );
    this.conversationId = conversationId;
  }
}
