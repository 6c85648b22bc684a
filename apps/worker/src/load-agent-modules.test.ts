/**
 * Loading the modules named by FLOTILLA_AGENTS, in-process: a module that cannot serve agents is
 * refused with AgentModuleError naming the variable, the module and what is wrong.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AgentModuleError } from './agent-module-error.js';
import { loadAgentModules } from './load-agent-modules.js';

const dir = mkdtempSync(join(tmpdir(), 'flotilla-agent-modules-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function moduleFile(name: string, source: string): string {
  writeFileSync(join(dir, name), source);
  return `./${name}`;
}

describe('loadAgentModules', () => {
  it('refuses a module that exports no agents, naming FLOTILLA_AGENTS and the module', async () => {
    const module = moduleFile('notes.mjs', 'export const notes = [];\n');
    const error = await loadAgentModules([module], dir).catch((caught: unknown) => caught);
    expect(AgentModuleError.is(error)).toBe(true);
    expect(error).toMatchObject({ module });
    expect((error as Error).message).toContain(`FLOTILLA_AGENTS: agent module "${module}"`);
    expect((error as Error).message).toContain('no `agents` array export');
  });

  it('refuses a path that is not a file', async () => {
    const error = await loadAgentModules(['./missing.mjs'], dir).catch((caught: unknown) => caught);
    expect(AgentModuleError.is(error)).toBe(true);
    expect((error as Error).message).toContain('is not a file');
  });

  it('refuses agents that were not made by createAgent', async () => {
    const module = moduleFile('fake.mjs', 'export const agents = [{ id: "fake" }];\n');
    const error = await loadAgentModules([module], dir).catch((caught: unknown) => caught);
    expect(AgentModuleError.is(error)).toBe(true);
    expect((error as Error).message).toContain('not an agent made by createAgent');
  });
});
