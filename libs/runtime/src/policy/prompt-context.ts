/**
 * The frozen view a policy works on (spec §4.1, §4.6): the generation's system and instruction
 * messages, tools, loop middlewares, validators, limits and model, sealed to the policy call
 * that made it. Primitives (`executeTurn`, `executeTools`, `executeValidation`) accept only a
 * live, sealed runtime of the calling agent's current generation; spread copies and forks keep
 * the seal.
 */
import type { Message } from '@flotilla/ir';
import type { AgentContext } from '../context/agent-context.js';
import { currentAgentContext } from '../context/context-store.js';
import type { OutputValidator } from '../context/output-validator.js';
import { InvalidPromptRuntimeError } from '../errors/policy-errors.js';
import { assertToolDefinition, equippedTool } from '../hooks/equip-tool.js';
import type { ModelAdapter } from '../model/model-adapter.js';
import type { EquippedTool } from '../tools/equipped-tool.js';
import type { ToolCallLoopMiddleware } from '../tools/tool-call-loop-middleware.js';
import type { ToolDefinition } from '../tools/tool-definition.js';
import { toIrMessages } from './message-input.js';

const SEAL = Symbol('flotilla.promptRuntimeSeal');

/** Ties a runtime to one policy call of one generation. */
export interface PolicySeal {
  context: AgentContext;
  generation: number;
  active: boolean;
}

/** What {@link PromptContext.fork} may replace: a value, or a function of the current value. */
export interface PromptContextForkOptions {
  messages?: Message[] | ((base: Message[]) => Message[]);
  system?: Message[] | ((base: Message[]) => Message[]);
  instruction?: Message[] | ((base: Message[]) => Message[]);
  /** Equipped tools (the base's) or plain tool definitions, which are equipped for the fork. */
  tools?: ForkTool[] | ((base: EquippedTool[]) => ForkTool[]);
  toolCallLoopMiddlewares?:
    | ToolCallLoopMiddleware[]
    | ((base: ToolCallLoopMiddleware[]) => ToolCallLoopMiddleware[]);
}

/** A tool a fork may be given: one of the base's, or a plain definition (`defineTool`, the seed's). */
// biome-ignore lint/suspicious/noExplicitAny: any zod schema; arguments are validated before the handler runs
export type ForkTool = EquippedTool | ToolDefinition<any>;

/** The runtime a policy handler receives. */
export interface PromptContext {
  /** `[...system, ...instruction]`. */
  readonly messages: Message[];
  readonly system: Message[];
  readonly instruction: Message[];
  readonly tools: EquippedTool[];
  readonly toolCallLoopMiddlewares: ToolCallLoopMiddleware[];
  readonly validators: OutputValidator[];
  readonly maxRetries: number;
  readonly maxTurnSteps: number;
  readonly model: ModelAdapter;
  readonly policyId: string;
  /** Model turns this generation has used so far. */
  usedTurnSteps(): number;
  /** A copy with some parts replaced; shares the turn budget, journal and seal. */
  fork(options: PromptContextForkOptions): PromptContext;
  readonly [SEAL]: PolicySeal;
}

/** Builds the sealed runtime of a policy call from the generation's draft. */
export function createPromptContext(
  context: AgentContext,
  policyId: string,
  model: ModelAdapter,
): PromptContext {
  const { draft, definition } = context;
  const seal: PolicySeal = { context, generation: context.generation, active: true };
  const system = [...draft.system];
  const instruction = [...draft.instructions];
  return buildRuntime({
    messages: [...system, ...instruction],
    system,
    instruction,
    tools: [...draft.tools.values()],
    toolCallLoopMiddlewares: [...draft.loopMiddlewares],
    validators: [...draft.validators],
    maxRetries: definition.maxRetries,
    maxTurnSteps: definition.maxTurnSteps,
    model,
    policyId,
    seal,
  });
}

interface RuntimeParts {
  messages: Message[];
  system: Message[];
  instruction: Message[];
  tools: EquippedTool[];
  toolCallLoopMiddlewares: ToolCallLoopMiddleware[];
  validators: OutputValidator[];
  maxRetries: number;
  maxTurnSteps: number;
  model: ModelAdapter;
  policyId: string;
  seal: PolicySeal;
}

function buildRuntime(parts: RuntimeParts): PromptContext {
  const { seal } = parts;
  // Written field by field: a rest object and its spread cost each policy call a dictionary copy.
  return {
    messages: parts.messages,
    system: parts.system,
    instruction: parts.instruction,
    tools: parts.tools,
    toolCallLoopMiddlewares: parts.toolCallLoopMiddlewares,
    validators: parts.validators,
    maxRetries: parts.maxRetries,
    maxTurnSteps: parts.maxTurnSteps,
    model: parts.model,
    policyId: parts.policyId,
    usedTurnSteps: () => seal.context.draft.turnSteps,
    fork: (options) => buildRuntime(forkParts(parts, options)),
    [SEAL]: seal,
  };
}

function forkParts(parts: RuntimeParts, options: PromptContextForkOptions): RuntimeParts {
  return {
    ...parts,
    messages: picked(options.messages, parts.messages, 'fork.messages'),
    system: picked(options.system, parts.system, 'fork.system'),
    instruction: picked(options.instruction, parts.instruction, 'fork.instruction'),
    tools: pick<ForkTool[]>(options.tools as ForkTool[] | undefined, parts.tools).map(toEquipped),
    toolCallLoopMiddlewares: pick(options.toolCallLoopMiddlewares, parts.toolCallLoopMiddlewares),
  };
}

/** Messages a fork was given, checked and converted like any other user-given history. */
function picked(
  option: Message[] | ((base: Message[]) => Message[]) | undefined,
  base: Message[],
  site: string,
): Message[] {
  return option === undefined ? base : toIrMessages(pick(option, base), site);
}

function toEquipped(tool: ForkTool): EquippedTool {
  if ('ir' in tool && 'definition' in tool) return tool;
  assertToolDefinition(tool, 'PromptContext.fork');
  return equippedTool(tool, []);
}

function pick<T>(option: T | ((base: T) => T) | undefined, base: T): T {
  if (option === undefined) return base;
  return typeof option === 'function' ? (option as (base: T) => T)(base) : option;
}

/** The agent context a runtime belongs to (for built-in policies). */
export function agentContextOf(runtime: PromptContext): AgentContext {
  return runtime[SEAL].context;
}

/** Ends a runtime's validity (its policy returned). */
export function expirePromptContext(runtime: PromptContext): void {
  runtime[SEAL].active = false;
}

/**
 * The agent context behind `runtime`, after checking it may be used now.
 * @throws InvalidPromptRuntimeError (`missing`, `unsealed`, `expired`, `foreign`)
 */
export function checkPromptRuntime(apiName: string, runtime: PromptContext | undefined): AgentContext {
  if (!runtime) throw new InvalidPromptRuntimeError(apiName, 'missing');
  const seal = (runtime as Partial<PromptContext>)[SEAL];
  if (!seal) throw new InvalidPromptRuntimeError(apiName, 'unsealed');
  if (!seal.active) throw new InvalidPromptRuntimeError(apiName, 'expired');
  if (currentAgentContext() !== seal.context || seal.context.generation !== seal.generation) {
    throw new InvalidPromptRuntimeError(apiName, 'foreign');
  }
  return seal.context;
}
