import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A tool handler returned something that is not JSON (undefined, a function, a Date, a cycle …).
 * In the tool loop it becomes the tool message the model sees; `callTool` throws it.
 */
export class InvalidToolOutputError extends FlotillaError {
  static override readonly errorName = 'InvalidToolOutputError';
  static override readonly is = errorGuard(this);
  readonly toolName: string;
  /** Where in the output the bad value sits; `(root)` for the output itself. */
  readonly path: string;
  readonly reason: string;

  constructor(toolName: string, path: string, reason: string) {
    super(
      `Tool "${toolName}" returned an invalid output at "${path}". Reason: ${reason}. Tool handlers must ` +
        'return a JSON-serializable value (string, finite number, boolean, null, plain object, array) or toolContent([...]).',
    );
    this.toolName = toolName;
    this.path = path;
    this.reason = reason;
  }
}
