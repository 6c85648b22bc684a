/**
 * Finds the TypeScript snippets of a Markdown file and how each is marked. A snippet is a
 * ```ts (or ```typescript) fence; the HTML comment right before it (blank lines between are
 * fine) says what the docs test does with it:
 *
 * - `<!-- snippet: run -->`: runnable offline (the mock model, at most a Redis): executed with tsx;
 * - `<!-- snippet: typecheck (why it cannot run, e.g. needs OPENAI_API_KEY) -->`: only type-checked;
 * - `<!-- snippet: output -->` before a ```text fence right after a `run` snippet: what that
 *   snippet prints (the worker's JSON log lines left out).
 *
 * Lines after the first line of a `run` or `typecheck` comment are a hidden prelude prepended to
 * the snippet (e.g. `declare const openaiModel: ModelAdapter;` for a name the prose introduces).
 */

/** A TypeScript fence and its marking. */
export interface MarkdownSnippet {
  /** 1-based line of the opening fence. */
  line: number;
  /** `undefined` when no snippet comment precedes the fence. */
  kind: 'run' | 'typecheck' | undefined;
  /** For `typecheck`: why it only type-checks (the text in parentheses). */
  reason: string | undefined;
  /** Hidden source lines the comment carries, prepended when the snippet is checked. */
  prelude: string;
  code: string;
  /** For `run`: the text its `output` fence shows. */
  expectedOutput: string | undefined;
}

/** A marking the docs test cannot use (an unknown kind, a typecheck without a reason, …). */
export interface SnippetMarkingError {
  line: number;
  message: string;
}

export interface ParsedSnippets {
  snippets: MarkdownSnippet[];
  errors: SnippetMarkingError[];
}

const FENCE = /^```(\S*)\s*$/;
const COMMENT_START = /^<!--\s*snippet:\s*(.*)$/;

/** Parses `markdown` into its TypeScript snippets, in order, and the markings it cannot use. */
export function parseSnippets(markdown: string): ParsedSnippets {
  const lines = markdown.split('\n');
  const snippets: MarkdownSnippet[] = [];
  const errors: SnippetMarkingError[] = [];
  let marker: { line: number; text: string; prelude: string[] } | undefined;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const comment = COMMENT_START.exec(line);
    if (comment) {
      const body = [comment[1] ?? ''];
      while (!body.at(-1)?.includes('-->') && index + 1 < lines.length) body.push(lines[++index] ?? '');
      const last = (body.pop() ?? '').replace(/-->\s*$/, '');
      body.push(last);
      const [first = '', ...prelude] = body;
      marker = { line: index + 1, text: first.trim(), prelude: prelude.filter((text) => text.trim() !== '') };
      continue;
    }
    const fence = FENCE.exec(line);
    if (fence) {
      const start = index;
      const body: string[] = [];
      while (index + 1 < lines.length && !/^```\s*$/.test(lines[index + 1] ?? ''))
        body.push(lines[++index] ?? '');
      index++; // the closing fence
      const language = fence[1] ?? '';
      if (language === 'ts' || language === 'typescript') {
        snippets.push(snippetOf(start + 1, body.join('\n'), marker, errors));
      } else if (marker?.text === 'output') {
        const previous = snippets.at(-1);
        if (previous?.kind !== 'run' || previous.expectedOutput !== undefined)
          errors.push({ line: marker.line, message: 'an output block must follow a `run` snippet' });
        else previous.expectedOutput = body.join('\n');
      } else if (marker) {
        errors.push({ line: marker.line, message: `a snippet comment before a \`${language}\` fence` });
      }
      marker = undefined;
      continue;
    }
    if (line.trim() !== '') marker = undefined; // a comment marks only the fence right after it
  }
  return { snippets, errors };
}

function snippetOf(
  line: number,
  code: string,
  marker: { line: number; text: string; prelude: string[] } | undefined,
  errors: SnippetMarkingError[],
): MarkdownSnippet {
  const snippet: MarkdownSnippet = {
    line,
    kind: undefined,
    reason: undefined,
    prelude: marker?.prelude.join('\n') ?? '',
    code,
    expectedOutput: undefined,
  };
  if (!marker) return snippet;
  const typecheck = /^typecheck\s*\((.+)\)$/.exec(marker.text);
  if (marker.text === 'run') snippet.kind = 'run';
  else if (typecheck) {
    snippet.kind = 'typecheck';
    snippet.reason = typecheck[1];
  } else
    errors.push({
      line: marker.line,
      message: `"${marker.text}" is not a snippet kind: use \`run\` or \`typecheck (why it cannot run)\``,
    });
  return snippet;
}
