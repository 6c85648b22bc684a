/**
 * What a child run inherits: the descriptors of every resource exposed by the calling agent or
 * its ancestors, nearest first per key, including those the calling run itself inherited. The
 * child-call path puts them in the child job data (`RunJobData.resources`).
 */

import type { ResourceDescriptor } from '../resources/resource-descriptor.js';
import type { AgentContext } from './agent-context.js';
import { runResourcesOf } from './run-resources-of.js';

/** Descriptors a child of `context` inherits, one per key (the nearest exposer wins). */
export function exposedDescriptors(context: AgentContext): ResourceDescriptor[] {
  const found = new Map<string, ResourceDescriptor>();
  for (let current: AgentContext | undefined = context; current; current = current.parent) {
    for (const [key, descriptor] of current.resources.exposedDescriptors()) {
      if (!found.has(key)) found.set(key, descriptor);
    }
  }
  for (const descriptor of runResourcesOf(context.run).inheritedDescriptors) {
    if (!found.has(descriptor.key)) found.set(descriptor.key, descriptor);
  }
  return [...found.values()];
}
