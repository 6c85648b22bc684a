/** Errors of durable waits: approvals, signals and sleep (`waits/`). */
import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A durable wait that only a worker can serve (a signal, an approval: something from outside the
 * process) was asked for in embedded mode (`runEmbedded`), which has no queue to park the run in.
 */
export class DurableWaitUnavailableError extends FlotillaError {
  static override readonly errorName = 'DurableWaitUnavailableError';
  static override readonly is = errorGuard(this);
  readonly kind: string;

  constructor(kind: string) {
    super(
      `A durable wait (${kind}) needs a worker: embedded runs cannot park. Run the agent on a worker ` +
        '(createWorker) and submit it with createClient().submit.',
    );
    this.kind = kind;
  }
}

/**
 * `waitForSignal` or `sleep` was called inside a tool handler. A tool runs as one durable step,
 * so a wait inside it would run the tool's earlier code again when the run resumes.
 */
export class WaitInsideToolError extends FlotillaError {
  static override readonly errorName = 'WaitInsideToolError';
  static override readonly is = errorGuard(this);
  readonly wait: string;

  constructor(wait: string, toolPosition: string) {
    super(
      `${wait} cannot be called inside a tool (${toolPosition}): a tool is one durable step, so its earlier ` +
        'code would run again on resume. Call it in the agent handler, before or after promptAgent, or give the ' +
        'tool needsApproval instead.',
    );
    this.wait = wait;
  }
}

/** `waitForSignal(name, { timeoutMs })`: no signal `name` came in time. Journaled: a replay throws it again. */
export class SignalTimeoutError extends FlotillaError {
  static override readonly errorName = 'SignalTimeoutError';
  static override readonly is = errorGuard(this);
  readonly signalName: string;
  readonly timeoutMs: number;

  constructor(signalName: string, timeoutMs: number) {
    super(`No signal "${signalName}" arrived within ${timeoutMs} ms.`);
    this.signalName = signalName;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A signal's payload does not match the schema its wait expects: refused at send
 * (`client.signal`, HTTP 400) when the run already waits with that schema, else thrown by the
 * wait that takes it. `issues` lists what was wrong.
 */
export class InvalidSignalPayloadError extends FlotillaError {
  static override readonly errorName = 'InvalidSignalPayloadError';
  static override readonly is = errorGuard(this);
  readonly signalName: string;
  readonly issues: string[];

  constructor(signalName: string, issues: string[]) {
    super(
      `The payload of signal "${signalName}" does not match the schema its wait expects: ${issues.join('; ')}. ` +
        'Send a payload of that shape.',
    );
    this.signalName = signalName;
    this.issues = issues;
  }
}

/** A durable wait was called with bad arguments (a negative sleep, an invalid signal name …). */
export class InvalidWaitError extends FlotillaError {
  static override readonly errorName = 'InvalidWaitError';
  static override readonly is = errorGuard(this);

  constructor(what: string, problem: string) {
    super(`Invalid ${what}: ${problem}.`);
  }
}

/** `client.approve` named a tool call for which the run asked no approval (yet). */
export class UnknownApprovalError extends FlotillaError {
  static override readonly errorName = 'UnknownApprovalError';
  static override readonly is = errorGuard(this);
  readonly runId: string;
  readonly callId: string;

  constructor(runId: string, callId: string) {
    super(
      `Run ${runId} asks no approval of tool call "${callId}". List what it waits for with ` +
        "client.listRuns({ status: 'waiting' }) (or GET /runs?status=waiting) and answer one of its pending approvals.",
    );
    this.runId = runId;
    this.callId = callId;
  }
}

/** `client.approve` answered a tool call that was answered differently before (the first answer stands). */
export class ApprovalAlreadyAnsweredError extends FlotillaError {
  static override readonly errorName = 'ApprovalAlreadyAnsweredError';
  static override readonly is = errorGuard(this);
  readonly runId: string;
  readonly callId: string;

  constructor(runId: string, callId: string) {
    super(`Tool call "${callId}" of run ${runId} was already answered differently; the first answer stands.`);
    this.runId = runId;
    this.callId = callId;
  }
}

/** A signal or an approval was sent to a run that already ended: nothing waits for it any more. */
export class RunAlreadyEndedError extends FlotillaError {
  static override readonly errorName = 'RunAlreadyEndedError';
  static override readonly is = errorGuard(this);
  readonly runId: string;
  readonly status: string;

  constructor(runId: string, status: string) {
    super(`Run ${runId} already ended (${status}); it takes no more signals or approvals.`);
    this.runId = runId;
    this.status = status;
  }
}

/**
 * A person rejected a tool call that needed approval: the handler never ran. The model gets it
 * as the call's result (`{ "rejected": true, "message": … }`), with the reason when one was given.
 */
export class ToolCallRejectedError extends FlotillaError {
  static override readonly errorName = 'ToolCallRejectedError';
  static override readonly is = errorGuard(this);
  readonly toolName: string;
  readonly reason: string | undefined;

  constructor(toolName: string, reason: string | undefined) {
    super(
      `A person rejected this call of tool "${toolName}"${reason ? `: ${reason}` : ' (no reason given)'}. ` +
        'It did not run.',
    );
    this.toolName = toolName;
    this.reason = reason;
  }
}
