/** Errors of run exports and replays (`replay/`). */
import { errorGuard, FlotillaError } from '@flotilla/ir';

/** A run export document is not one this runtime reads: another format or version, a bad field. */
export class InvalidRunExportError extends FlotillaError {
  static override readonly errorName = 'InvalidRunExportError';
  static override readonly is = errorGuard(this);
  /** Where the document came from, e.g. a file name. */
  readonly source: string;
  /** What is wrong, one line per problem (`journal.3.entry.kind: …`), at most 10. */
  readonly issues: string[];

  constructor(source: string, issues: string[]) {
    super(
      `${source} is not a run export this runtime reads: ${issues.join('; ')}. Export the run again with ` +
        '`client.exportRun(runId)` or `flotilla runs export <runId>` (format "flotilla.run-export", version 1), ' +
        'and do not edit the file by hand.',
    );
    this.source = source;
    this.issues = issues;
  }
}

/** A run export would be (or is) larger than the bound of run exports. */
export class RunExportTooLargeError extends FlotillaError {
  static override readonly errorName = 'RunExportTooLargeError';
  static override readonly is = errorGuard(this);
  readonly source: string;
  readonly bytes: number;
  readonly maxBytes: number;

  constructor(source: string, bytes: number, maxBytes: number) {
    super(
      `${source} is ${bytes} bytes of JSON; run exports hold at most ${maxBytes}. Replay a shorter run (a run ` +
        'that reborns keeps each generation short), or offload large tool results (equipContextBudget).',
    );
    this.source = source;
    this.bytes = bytes;
    this.maxBytes = maxBytes;
  }
}

/**
 * A run cannot be exported yet: it has not started, so there is no journal and its input is only
 * in its queued job. Export it once a worker has started it.
 */
export class RunNotExportableError extends FlotillaError {
  static override readonly errorName = 'RunNotExportableError';
  static override readonly is = errorGuard(this);
  readonly runId: string;

  constructor(runId: string, reason: string) {
    super(`Run "${runId}" cannot be exported: ${reason}.`);
    this.runId = runId;
  }
}

/**
 * During `replayRun`, the handler used a resource (`equipResource`, an MCP kit's client) outside a
 * recorded durable step. A replay never creates real resources: it serves what their calls
 * returned from the journal, so a resource used by the handler itself (not inside a tool) has
 * nothing to replay. Use resources inside tools, whose results are journaled.
 */
export class ReplayResourceUsedError extends FlotillaError {
  static override readonly errorName = 'ReplayResourceUsedError';
  static override readonly is = errorGuard(this);
  readonly key: string;

  constructor(key: string) {
    super(
      `Resource "${key}" was used outside a durable step during replayRun: a replay has only a stand-in for it. ` +
        'Call resources inside tools (their results are journaled and replayed), not in the handler itself.',
    );
    this.key = key;
  }
}

/**
 * During `replayRun`, the code was about to do something only a live run does (wait for a
 * signal or an approval, append to a conversation). A replay serves these from the journal and
 * stops where it ends, so this is a bug of the replay.
 */
export class ReplayWaitUsedError extends FlotillaError {
  static override readonly errorName = 'ReplayWaitUsedError';
  static override readonly is = errorGuard(this);

  constructor(what: string) {
    super(
      `replayRun cannot ${what}: a replay serves it from the journal only. This is a bug of the replay (an ` +
        'unrecorded step should stop it); report it with the run export.',
    );
  }
}
