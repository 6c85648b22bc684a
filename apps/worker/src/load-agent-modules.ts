import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AnyAgent, ModelAdapter } from '@flotilla/runtime';
import { AgentModuleError } from './agent-module-error.js';

/** The agents and models of every module named in `FLOTILLA_AGENTS`, merged. */
export interface LoadedAgents {
  agents: AnyAgent[];
  models: Record<string, ModelAdapter>;
}

/**
 * Imports each agent module: a path (absolute, or relative to `cwd`; one starting with `.` or
 * `/` must exist), otherwise a package name resolved from this app's location. Each must export `agents` (an array) and may
 * export `models` (a record of model adapters).
 * @throws AgentModuleError when a module fails to import, lacks `agents`, or two modules
 *   export the same model id
 */
export async function loadAgentModules(
  modules: readonly string[],
  cwd = process.cwd(),
): Promise<LoadedAgents> {
  const loaded: LoadedAgents = { agents: [], models: {} };
  for (const module of modules) {
    const exports = await importModule(module, cwd);
    loaded.agents.push(...agentsOf(module, exports));
    for (const [id, model] of Object.entries(modelsOf(module, exports))) {
      if (id in loaded.models)
        throw new AgentModuleError(module, `exports model "${id}", already exported by another module`);
      loaded.models[id] = model;
    }
  }
  return loaded;
}

async function importModule(module: string, cwd: string): Promise<Record<string, unknown>> {
  const path = isAbsolute(module) ? module : resolve(cwd, module);
  const isPath = module.startsWith('.') || isAbsolute(module);
  if (isPath && !existsSync(path)) throw new AgentModuleError(module, `is not a file (looked for ${path})`);
  // `pkg/agents` may be a package name or a path without `./`: a file that exists wins.
  const specifier = existsSync(path) ? pathToFileURL(path).href : module;
  try {
    return (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    throw new AgentModuleError(module, `could not be imported (${(error as Error).message})`, {
      cause: error,
    });
  }
}

function agentsOf(module: string, exports: Record<string, unknown>): AnyAgent[] {
  const { agents } = exports;
  if (!Array.isArray(agents)) throw new AgentModuleError(module, 'has no `agents` array export');
  for (const agent of agents) {
    if (typeof agent !== 'function' || typeof (agent as { id?: unknown }).id !== 'string')
      throw new AgentModuleError(
        module,
        'exports `agents` with an entry that is not an agent made by createAgent',
      );
  }
  return agents as AnyAgent[];
}

function modelsOf(module: string, exports: Record<string, unknown>): Record<string, ModelAdapter> {
  const { models } = exports;
  if (models === undefined) return {};
  if (typeof models !== 'object' || models === null || Array.isArray(models))
    throw new AgentModuleError(module, 'exports `models` that is not a record of model adapters');
  for (const [id, model] of Object.entries(models)) {
    if (typeof (model as { generate?: unknown })?.generate !== 'function')
      throw new AgentModuleError(module, `exports model "${id}" without a generate() method`);
  }
  return models as Record<string, ModelAdapter>;
}
