import { errorGuard, FlotillaError } from '@flotilla/ir';

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
export class ExpectScopeError extends FlotillaError {
  static override readonly errorName = 'ScopeError';
  static override readonly is = errorGuard(this);
  readonly issues: ScopeIssue[];

  constructor(issues: ScopeIssue[]) {
    const lines = issues.map((issue) => `  - ${issue.path}: ${issue.message}`).join('\n');
    super(
      `Scope Validation Failed:\n${lines}\nProvide these values with equipScope() in a parent agent or at submit time.`,
    );
    this.issues = issues;
  }
}
