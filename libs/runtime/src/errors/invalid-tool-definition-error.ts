import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A tool given to `equipTool` lacks a field the runtime needs: a zod `parameters` schema (the
 * usual slip is passing a JSON Schema as `inputSchema`, MCP style) or a `handler` function.
 */
export class InvalidToolDefinitionError extends FlotillaError {
  static override readonly errorName = 'InvalidToolDefinitionError';
  static override readonly is = errorGuard(this);
  /** The tool's name as given (`<unnamed>` when it has none). */
  readonly toolName: string;
  /** The missing or wrong field. */
  readonly field: 'name' | 'parameters' | 'handler';

  constructor(toolName: string, field: InvalidToolDefinitionError['field'], site: string) {
    super(`${site}: tool "${toolName}" ${REMEDY[field]}`);
    this.toolName = toolName;
    this.field = field;
  }
}

const REMEDY: Record<InvalidToolDefinitionError['field'], string> = {
  name: 'needs `name`, a non-empty string unique within the generation.',
  parameters:
    'needs `parameters`, a zod schema of its arguments (e.g. `z.object({ query: z.string() })`); ' +
    'a JSON Schema (`inputSchema`) is not accepted: convert it to zod, or wrap the tool with `defineTool`.',
  handler: 'needs `handler`, a function `(args, context) => result` that runs the tool.',
};
