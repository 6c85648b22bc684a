import { errorGuard, FlotillaError } from '@flotilla/ir';

/** A job named an agent this worker does not serve. The run fails; the worker keeps serving. */
export class UnknownAgentError extends FlotillaError {
  static override readonly errorName = 'UnknownAgentError';
  static override readonly is = errorGuard(this);
  readonly agentId: string;
  readonly knownAgentIds: string[];

  constructor(agentId: string, knownAgentIds: string[]) {
    super(
      `No agent "${agentId}" on this worker; it serves ${knownAgentIds.map((id) => `"${id}"`).join(', ') || 'no agents'}. ` +
        'Submit one of those ids, or add the agent to createWorker({ agents }).',
    );
    this.agentId = agentId;
    this.knownAgentIds = knownAgentIds;
  }
}
