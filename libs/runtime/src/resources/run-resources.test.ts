/**
 * equipResource / expectResource against a worker's registry, without Redis: two runs on one
 * "worker" (one registry), the second inheriting what the first exposes, as a child run would.
 */
import { describe, expect, it } from 'vitest';
import { createAgent } from '../agent/create-agent.js';
import { executeRun } from '../agent/execute-run.js';
import { currentAgentContext } from '../context/context-store.js';
import { exposedDescriptors } from '../context/exposed-descriptors.js';
import { createEmbeddedServices } from '../embedded/create-embedded-services.js';
import { ResourceNotFoundError } from '../errors/agent-errors.js';
import { equipResource } from '../hooks/equip-resource.js';
import { expectResource } from '../hooks/expect-resource.js';
import { defineResource, resourceDefinitionMap } from './define-resource.js';
import type { ResourceDescriptor } from './resource-descriptor.js';
import { ResourceRegistry } from './resource-registry.js';
import { RunResources } from './run-resources.js';

function servicesOn(registry: ResourceRegistry, runId: string, inherited: ResourceDescriptor[] = []) {
  const services = createEmbeddedServices({ runId });
  services.resources = new RunResources({ runId, registry, inherited });
  return services;
}

/**
 * Executes an owner agent that exposes `db` and returns the descriptors a child would inherit.
 * The run marks itself suspended before its agent ends, as a parent waiting on a child does
 * (its agent never ends there: the execution is abandoned), so it keeps its lease.
 */
async function ownerRun(registry: ResourceRegistry, log: string[], runId = 'owner') {
  const services = servicesOn(registry, runId);
  const Owner = createAgent({
    id: 'owner',
    handler: async () => {
      await equipResource('db', {
        create: () => {
          log.push('create');
          return { name: 'primary' };
        },
        destroy: () => void log.push('destroy'),
        deps: ['primary'],
        expose: true,
      });
      services.resources?.suspend();
      const context = currentAgentContext();
      return context ? exposedDescriptors(context) : [];
    },
  });
  await services.resources?.prepare();
  const { output } = await executeRun({ agent: Owner, input: {}, services });
  return output as ResourceDescriptor[];
}

describe('RunResources', () => {
  it('describes an exposed resource with its owner run, invocation, worker and deps', async () => {
    const registry = new ResourceRegistry({ workerId: 'worker-a' });
    const descriptors = await ownerRun(registry, []);
    expect(descriptors).toEqual([
      expect.objectContaining({
        key: 'db',
        deps: ['primary'],
        ownerRunId: 'owner',
        ownerCallPath: 'root/agent:owner:0',
        ownerWorkerId: 'worker-a',
      }),
    ]);
  });

  it('gives a child run on the owner’s worker the owner’s very instance', async () => {
    const registry = new ResourceRegistry();
    const log: string[] = [];
    const descriptors = await ownerRun(registry, log);
    const owned = registry.lookup(
      `run:owner:root/agent:owner:0\u001fdb\u001f${descriptors[0]?.depsHash ?? ''}`,
    )?.instance;
    const Child = createAgent({ id: 'child', handler: async () => expectResource('db') });
    const { output } = await executeRun({
      agent: Child,
      input: {},
      services: servicesOn(registry, 'child', descriptors),
    });
    expect(output).toEqual({ name: 'primary' });
    expect(owned).toEqual({ name: 'primary' });
    expect(log).toEqual(['create']);
  });

  it('keeps the suspended owner’s instance for its replay on the same worker, and destroys it once when the run ends', async () => {
    const registry = new ResourceRegistry();
    const log: string[] = [];
    await ownerRun(registry, log);
    await ownerRun(registry, log);
    expect(log).toEqual(['create']);
    await registry.releaseRun('owner');
    expect(log).toEqual(['create', 'destroy']);
  });

  it('builds a local instance from a definition when the owner is another worker', async () => {
    const owner = new ResourceRegistry({ workerId: 'worker-a' });
    const descriptors = await ownerRun(owner, []);
    const local = new ResourceRegistry({ workerId: 'worker-b' });
    const built: unknown[][] = [];
    const resources = new RunResources({
      runId: 'child',
      registry: local,
      inherited: descriptors,
      definitions: resourceDefinitionMap([
        defineResource('db', {
          create: (deps) => {
            built.push(deps);
            return { name: `local ${String(deps[0])}` };
          },
        }),
      ]),
    });
    await resources.prepare();
    const services = createEmbeddedServices({ runId: 'child' });
    services.resources = resources;
    const Child = createAgent({ id: 'child', handler: async () => expectResource('db') });
    const { output } = await executeRun({ agent: Child, input: {}, services });
    expect(output).toEqual({ name: 'local primary' });
    expect(built).toEqual([['primary']]);
  });

  it('throws ResourceNotFoundError when no ancestor exposed the key', async () => {
    const Child = createAgent({ id: 'child', handler: async () => expectResource('db') });
    const error = await executeRun({
      agent: Child,
      input: {},
      services: servicesOn(new ResourceRegistry(), 'c'),
    }).catch((caught: unknown) => caught);
    expect(ResourceNotFoundError.is(error)).toBe(true);
  });
});
