import { describe, expect, it } from 'vitest';
import { parseSnippets } from './markdown-snippets.js';

const fence = (language: string, code: string) => `\`\`\`${language}\n${code}\n\`\`\``;

describe('parseSnippets', () => {
  it('reads the kind, the reason, the hidden prelude and the output of each TypeScript fence', () => {
    const markdown = [
      '# Doc',
      '<!-- snippet: run -->',
      fence('ts', "console.log('hi');"),
      '',
      '<!-- snippet: output -->',
      fence('text', 'hi'),
      '<!-- snippet: typecheck (needs OPENAI_API_KEY)',
      'declare const key: string;',
      '-->',
      '',
      fence('typescript', 'key.length;'),
      fence('sh', 'npm test'),
    ].join('\n');
    const { snippets, errors } = parseSnippets(markdown);
    expect(errors).toEqual([]);
    expect(snippets).toEqual([
      {
        line: 3,
        kind: 'run',
        reason: undefined,
        prelude: '',
        code: "console.log('hi');",
        expectedOutput: 'hi',
      },
      {
        line: 15,
        kind: 'typecheck',
        reason: 'needs OPENAI_API_KEY',
        prelude: 'declare const key: string;',
        code: 'key.length;',
        expectedOutput: undefined,
      },
    ]);
  });

  it('leaves a fence unmarked when prose stands between the comment and the fence', () => {
    const markdown = ['<!-- snippet: run -->', 'Some prose.', fence('ts', 'let a = 1;')].join('\n');
    expect(parseSnippets(markdown).snippets[0]?.kind).toBeUndefined();
  });

  it('reports an unknown kind, a typecheck without a reason and an output without a run', () => {
    const markdown = [
      '<!-- snippet: execute -->',
      fence('ts', 'a;'),
      '<!-- snippet: typecheck -->',
      fence('ts', 'b;'),
      '<!-- snippet: output -->',
      fence('text', 'c'),
    ].join('\n');
    expect(parseSnippets(markdown).errors.map((error) => error.line)).toEqual([1, 5, 9]);
  });
});
