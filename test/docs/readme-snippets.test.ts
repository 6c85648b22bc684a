/**
 * The TypeScript snippets of the docs, checked the way a reader would use them: every snippet is
 * marked (`test/docs/markdown-snippets.ts`); each `run` snippet is written to a directory inside
 * the repository (so `@flotilla/*` and `zod` resolve through the workspace's node_modules),
 * executed with tsx against this file's Redis under its own key prefix, and its output compared
 * with the docs; every snippet, `run` ones included, is type-checked with tsc in strict mode.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../apps/support/worker-process.js';
import { useRedis } from '../support/redis.js';
import { type MarkdownSnippet, parseSnippets } from './markdown-snippets.js';

const run = promisify(execFile);
const redis = useRedis(import.meta.filename);

/**
 * The docs whose snippets are checked, relative to the repository root. Not yet the reference
 * READMEs of `libs/ir` and `libs/adapters`: their snippets are fragments of API sketches
 * (names from the prose, hypothetical adapters) that would each need a prelude.
 */
const DOCS = [
  'README.md',
  'libs/runtime/README.md',
  'apps/worker/README.md',
  'apps/scheduler/README.md',
  'examples/README.md',
  ...readdirSync(join(REPO_ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** Longest a snippet may run before it is killed (a deadline for a hung snippet, not a speed check). */
const SNIPPET_DEADLINE_MS = 45_000;

interface DocSnippet extends MarkdownSnippet {
  doc: string;
  /** The file the snippet is written to, e.g. `README.md-92.ts`. */
  fileName: string;
}

const parsed = DOCS.map((doc) => ({ doc, ...parseSnippets(readFileSync(join(REPO_ROOT, doc), 'utf8')) }));
const snippets: DocSnippet[] = parsed.flatMap(({ doc, snippets }) =>
  snippets.map((snippet) => ({
    ...snippet,
    doc,
    fileName: `${doc.replaceAll('/', '_')}-${snippet.line}.ts`,
  })),
);
const runnable = snippets.filter((snippet) => snippet.kind === 'run');

let dir = '';
beforeAll(() => {
  // Inside the repository, so bare imports resolve like they do for a reader's file there.
  dir = mkdtempSync(join(REPO_ROOT, '.snippets-'));
  for (const snippet of snippets) {
    // `export {}` makes every snippet a module, so top-level names never clash across files.
    writeFileSync(join(dir, snippet.fileName), `${snippet.prelude}\n${snippet.code}\nexport {};\n`);
  }
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the snippets of the docs', () => {
  it('are all marked `run` or `typecheck (why)`, with no marking the test cannot use', () => {
    const unmarked = snippets
      .filter((snippet) => snippet.kind === undefined)
      .map((snippet) => `${snippet.doc}:${snippet.line} has no <!-- snippet: … --> comment`);
    const bad = parsed.flatMap(({ doc, errors }) =>
      errors.map((error) => `${doc}:${error.line} ${error.message}`),
    );
    expect([...unmarked, ...bad]).toEqual([]);
    expect(runnable.length).toBeGreaterThan(0);
  });

  it('type-check with tsc (strict, NodeNext, the packages as built)', async () => {
    const tsconfig = {
      extends: '../tsconfig.base.json',
      compilerOptions: { composite: false, declaration: false, declarationMap: false, noEmit: true },
      include: ['*.ts'],
    };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    const tsc = join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
    const result = await run(process.execPath, [tsc, '-p', dir], { cwd: REPO_ROOT }).catch(
      (error: { stdout: string; stderr: string; code: number }) => error,
    );
    expect(`${result.stdout}${result.stderr}`).toBe('');
  });

  describe.each(runnable.map((snippet) => [`${snippet.doc}:${snippet.line}`, snippet] as const))(
    '%s',
    (_name, snippet) => {
      it('runs offline and prints what the docs show', async () => {
        const result = await run(process.execPath, ['--import', 'tsx', join(dir, snippet.fileName)], {
          cwd: REPO_ROOT,
          timeout: SNIPPET_DEADLINE_MS,
          env: {
            ...process.env,
            REDIS_URL: redis.url,
            FLOTILLA_PREFIX: `${redis.prefix}:${snippet.fileName}`,
            FLOTILLA_DEMO_PREFIX: `${redis.prefix}:${snippet.fileName}`,
          },
        }).catch((error: { stdout: string; stderr: string; code: number | null; signal: string | null }) => {
          throw new Error(
            `${snippet.doc}:${snippet.line} exited ${error.code ?? error.signal}:\n${error.stderr}\n${error.stdout}`,
          );
        });
        if (snippet.expectedOutput !== undefined)
          expect(withoutLogLines(result.stdout)).toBe(snippet.expectedOutput.trim());
      });
    },
  );
});

/** stdout without the pino JSON lines of workers and clients, trimmed. */
function withoutLogLines(stdout: string): string {
  return stdout
    .split('\n')
    .filter((line) => !line.startsWith('{"level":'))
    .join('\n')
    .trim();
}
