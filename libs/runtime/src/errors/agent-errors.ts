import { errorGuard, FlotillaError } from '@flotilla/ir';

/**
 * A hook (`equipTool`, `promptAgent`, `expectScope` …) was called outside an agent run: not in
 * an agent handler, nor in anything it awaits (tool handlers, middlewares, helpers).
 */
export class ContextNotFoundError extends FlotillaError {
  static override readonly errorName = 'ContextNotFoundError';
  static override readonly is = errorGuard(this);
  /** The hook that was called, e.g. `equipTool`. */
  readonly apiName: string;

  constructor(apiName: string) {
    super(
      `${apiName} may only be called inside an agent run. Call it from an agent handler (or from ` +
        'a tool handler or helper the handler awaits), not at module top level or from a timer ' +
        'started outside the agent.',
    );
    this.apiName = apiName;
  }
}

/** Two tools with the same name were equipped in one generation (or given to one turn). */
export class DuplicateToolNameError extends FlotillaError {
  static override readonly errorName = 'DuplicateToolNameError';
  static override readonly is = errorGuard(this);
  readonly toolName: string;
  /** Where it was detected: `equipTool`, `executeTurn` or `executeTools`. */
  readonly site: string;

  constructor(toolName: string, site: string) {
    super(
      `Duplicate tool name "${toolName}" (detected in ${site}); tool names must be unique. Rename one of the tools.`,
    );
    this.toolName = toolName;
    this.site = site;
  }
}

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
  readonly field: 'name' | 'parameters' | 'handler' | 'timeoutMs' | 'needsApproval';

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
  timeoutMs: 'has an invalid `timeoutMs`: give a whole number of milliseconds ≥ 1, or leave it out.',
  needsApproval:
    'has an invalid `needsApproval`: give `true`, `false` or a function `(args) => boolean`, or leave it out.',
};

/**
 * A draft hook (`equipSystem`, `equipInstruction`, `equipTool`, `equipToolCallLoopMiddleware`,
 * `expectValidator`, `onStream`) was called after the generation's policy (`promptAgent`,
 * `promptChat` …) had started, for example from a tool handler during the tool loop.
 */
export class AfterPromptAgentError extends FlotillaError {
  static override readonly errorName = 'AfterPromptAgentError';
  static override readonly is = errorGuard(this);
  /** The hook that was called too late. */
  readonly apiName: string;

  constructor(apiName: string) {
    super(
      `${apiName} must be called before promptAgent() in the same generation; it was called after ` +
        'promptAgent(). Move the call above the policy call, or return reborn() to start a new generation.',
    );
    this.apiName = apiName;
  }
}

/**
 * A second policy call (`promptAgent`, `promptChat` or a custom policy) in one generation.
 * One policy call per generation: use `reborn()` or a child agent for more.
 */
export class PromptAgentAlreadyCalledError extends FlotillaError {
  static override readonly errorName = 'PromptAgentAlreadyCalledError';
  static override readonly is = errorGuard(this);
  /** The policy that was called the second time. */
  readonly policyId: string;

  constructor(policyId: string) {
    super(
      `promptAgent has already been called in this generation (second call: ${policyId}); a policy ` +
        'may only be called once per generation. Return reborn() or call a child agent for another prompt.',
    );
    this.policyId = policyId;
  }
}

/** One problem found by `expectScope`. */
export interface ScopeIssue {
  /** Dotted path of the offending field, `(root)` for the scope itself. */
  path: string;
  message: string;
}

/**
 * The merged scope did not satisfy the schema given to `expectScope`. Its `name` is
 * `ScopeError` (the name users match on); `issues` lists every problem.
 */
export class ExpectScopeError extends FlotillaError {
  static override readonly errorName = 'ScopeError';
  static override readonly is = errorGuard(this);
  readonly issues: ScopeIssue[];

  constructor(issues: ScopeIssue[]) {
    const lines = issues.map((issue) => `  - ${issue.path}: ${issue.message}`).join('\n');
    super(
      `Scope Validation Failed:\n${lines}\nProvide these values with equipScope() in a parent agent or at submit time.`,
    );
    this.issues = issues;
  }
}

/** `expectResource(key)` found no exposed resource with that key in the agent chain. */
export class ResourceNotFoundError extends FlotillaError {
  static override readonly errorName = 'ResourceNotFoundError';
  static override readonly is = errorGuard(this);
  readonly key: string;

  constructor(key: string) {
    super(
      `Resource "${key}" was not found in the context chain. Ensure a parent agent has called ` +
        `equipResource('${key}', { ..., expose: true }) before calling this agent, or pass { optional: true }.`,
    );
    this.key = key;
  }
}

/** A zod schema (for `promptAgent`, `promptChat({ schema })` or a tool) has no JSON Schema form. */
export class SchemaConversionError extends FlotillaError {
  static override readonly errorName = 'SchemaConversionError';
  static override readonly is = errorGuard(this);

  constructor(site: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Could not convert the zod schema of ${site} to JSON Schema: ${reason}. Use JSON-representable ` +
        'types (no transforms, dates, bigints or custom types in schemas sent to the model).',
      { cause },
    );
  }
}

/** A policy needed a model but neither the agent nor any ancestor agent has one. */
export class ModelNotFoundError extends FlotillaError {
  static override readonly errorName = 'ModelNotFoundError';
  static override readonly is = errorGuard(this);
  readonly agentId: string;

  constructor(agentId: string) {
    super(
      `Agent "${agentId}" has no model: pass createAgent({ model }) to it or to a parent agent ` +
        '(a ModelAdapter, or a model id registered in the worker / runAgent `models`).',
    );
    this.agentId = agentId;
  }
}

/** `createAgent({ model: 'id' })` named a model id that the run's `models` map does not hold. */
export class ModelRegistryNotFoundError extends FlotillaError {
  static override readonly errorName = 'ModelRegistryNotFoundError';
  static override readonly is = errorGuard(this);
  readonly modelId: string;
  readonly agentId: string;
  /** The ids that are registered. */
  readonly availableIds: string[];

  constructor(modelId: string, agentId: string, availableIds: string[]) {
    const available = availableIds.length === 0 ? '(none)' : availableIds.map((id) => `'${id}'`).join(', ');
    super(
      `No model adapter registered for id '${modelId}' (agent: ${agentId}). Registered ids: ${available}. ` +
        'Add it to the `models` option of createWorker / runAgent.',
    );
    this.modelId = modelId;
    this.agentId = agentId;
    this.availableIds = availableIds;
  }
}

/** Agents called each other deeper than the nesting limit (likely unbounded recursion). */
export class MaxDepthExceededError extends FlotillaError {
  static override readonly errorName = 'MaxDepthExceededError';
  static override readonly is = errorGuard(this);
  readonly maxDepth: number;

  constructor(maxDepth: number, callPath: string) {
    super(
      `Stack overflow: max agent depth (${maxDepth}) exceeded at ${callPath}. Check for agents that call themselves without a stop condition.`,
    );
    this.maxDepth = maxDepth;
  }
}

/** The handler kept returning `reborn()` past `maxReborns`. */
export class RebornLimitExceededError extends FlotillaError {
  static override readonly errorName = 'RebornLimitExceededError';
  static override readonly is = errorGuard(this);
  readonly maxReborns: number;
  readonly attemptedReborns: number;

  constructor(maxReborns: number, attemptedReborns: number) {
    super(
      `Reborn limit exceeded: the agent tried reborn #${attemptedReborns}, max allowed is ${maxReborns}. ` +
        'Make the reborn condition converge (keep a counter in equipMemory) or raise createAgent({ maxReborns }).',
    );
    this.maxReborns = maxReborns;
    this.attemptedReborns = attemptedReborns;
  }
}

/**
 * A run called more child agents than its limit allows (`maxChildrenPerRun` /
 * `FLOTILLA_MAX_CHILDREN_PER_RUN`, default 1000). Thrown at the call that passed the limit;
 * the handler may catch it.
 */
export class FanOutLimitExceededError extends FlotillaError {
  static override readonly errorName = 'FanOutLimitExceededError';
  static override readonly is = errorGuard(this);
  /** The limit that was passed. */
  readonly maxChildren: number;
  /** The journal position of the refused call. */
  readonly position: string;

  constructor(maxChildren: number, position: string) {
    super(
      `The run called more than ${maxChildren} child agents; the call at ${position} was refused. Split the work ` +
        'into batches handled by intermediate child agents, or raise maxChildrenPerRun / FLOTILLA_MAX_CHILDREN_PER_RUN.',
    );
    this.maxChildren = maxChildren;
    this.position = position;
  }
}

/**
 * `createAgent` was given a configuration it cannot run (an empty id, a retry policy without
 * attempts, a timeout that is not a whole number of milliseconds). `field` names the option.
 */
export class InvalidAgentConfigError extends FlotillaError {
  static override readonly errorName = 'InvalidAgentConfigError';
  static override readonly is = errorGuard(this);
  readonly field: string;

  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}
