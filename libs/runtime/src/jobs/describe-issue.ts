import type { z } from 'zod';

/**
 * The first issue of a failed zod parse as a phrase that names the field, e.g.
 * "`conversationId` must be a non-empty string" or "`child.depth`: Invalid input: expected int,
 * received string", so a typed error points at what to fix. Schemas give their own lower-case
 * messages ("must be …") where zod's wording would not say what is expected.
 */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return error.message;
  const path = issue.path.map(String).join('.');
  if (path === '') return issue.message;
  return /^[a-z]/.test(issue.message) ? `\`${path}\` ${issue.message}` : `\`${path}\`: ${issue.message}`;
}
