import { currentToolScope } from '../engine/progress-scope.js';
import { WaitInsideToolError } from '../errors/wait-errors.js';

/**
 * A durable wait belongs to the agent handler: inside a tool (one durable step) a resume would
 * run the tool's code before the wait again.
 * @throws WaitInsideToolError inside a tool handler
 */
export function refuseInsideTool(wait: string): void {
  const tool = currentToolScope();
  if (tool !== undefined) throw new WaitInsideToolError(wait, tool);
}
