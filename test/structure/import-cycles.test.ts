/**
 * The layers of each package stay acyclic: no folder of a package's `src` imports a folder that
 * (directly or through others) imports it back. Type-only imports count too: a cycle of types
 * is still a cycle a reader has to untangle. The graph comes from madge (the real TypeScript
 * resolver), over source files only (tests and fixtures may reach across layers).
 */
import path from 'node:path';
import madge from 'madge';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');
const packages = [
  'libs/ir/src',
  'libs/runtime/src',
  'libs/adapters/src',
  'apps/worker/src',
  'apps/scheduler/src',
];

/** The folder a file belongs to: its first path segment below `src` (a root file is its own node). */
function folderOf(file: string): string {
  const [first, ...rest] = file.split('/');
  return rest.length > 0 ? (first ?? file) : file.replace(/\.ts$/, '');
}

/** Strongly connected components with more than one folder (Tarjan). */
function folderCycles(graph: Record<string, string[]>): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const [file, deps] of Object.entries(graph)) {
    const from = folderOf(file);
    if (!edges.has(from)) edges.set(from, new Set());
    for (const dep of deps) {
      const to = folderOf(dep);
      if (to !== from) edges.get(from)?.add(to);
    }
  }
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) cycles.push(component.sort());
    }
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

describe('import layers', () => {
  it('finds a cycle when there is one (the check itself works)', () => {
    expect(
      folderCycles({ 'a/x.ts': ['b/y.ts'], 'b/y.ts': ['c/z.ts'], 'c/z.ts': ['a/w.ts'], 'a/w.ts': [] }),
    ).toEqual([['a', 'b', 'c']]);
    expect(folderCycles({ 'a/x.ts': ['b/y.ts'], 'b/y.ts': [], 'index.ts': ['a/x.ts'] })).toEqual([]);
  });

  it.each(packages)('%s has no folder-level import cycle', async (src) => {
    const result = await madge(path.join(root, src), {
      fileExtensions: ['ts'],
      tsConfig: path.join(root, 'tsconfig.base.json'),
      excludeRegExp: [/\.test\.ts$/, /\.test-d\.ts$/, /__fixtures__/, /(^|\/)testing\/.*support/],
      detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
    });
    const graph = result.obj();
    expect(Object.keys(graph).length).toBeGreaterThan(5);
    expect(folderCycles(graph)).toEqual([]);
  });
});
