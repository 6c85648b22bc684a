/**
 * A tool as equipped in a generation: its definition, the middleware chain
 * (`equipTool` middlewares outside, the tool's own inside) and its IR form for the model.
 */
import type { ToolDefinition as IrToolDefinition } from '@flotilla/ir';
import type { NeedsApproval, ToolDefinition, ToolMiddleware } from './tool-definition.js';

/** A tool ready for the loop. */
export interface EquippedTool {
  definition: ToolDefinition;
  /** Outermost first: `[...equipTool middlewares, ...tool.middlewares]`. */
  middlewares: ToolMiddleware[];
  /** Name, description and JSON Schema parameters, as sent to the model. */
  ir: IrToolDefinition;
  /** The handler's time limit (`equipTool` option, else the definition's). @default none */
  timeoutMs?: number;
  /** Whether a call needs a person's approval (`equipTool` option, else the definition's). @default no */
  needsApproval?: NeedsApproval;
}
