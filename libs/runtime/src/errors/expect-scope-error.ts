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
export class ExpectScopeError extends Error {
  override readonly name = 'ScopeError';
  readonly issues: ScopeIssue[];

  constructor(issues: ScopeIssue[]) {
    const lines = issues.map((issue) => `  - ${issue.path}: ${issue.message}`).join('\n');
    super(
      `Scope Validation Failed:\n${lines}\nProvide these values with equipScope() in a parent agent or at submit time.`,
    );
    this.issues = issues;
  }

  static is(error: unknown): error is ExpectScopeError {
    return error instanceof Error && error.name === 'ScopeError';
  }
}
