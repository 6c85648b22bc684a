/**
 * The one place that hides credentials in text Flotilla keeps or prints: run-record errors
 * (`errors/serialize-error.ts`) and log lines (`redactingLogOptions`). A provider that echoes
 * the request (its API key included) in an error body must not put the key into Redis for days
 * or into every log collector. Only the secret part is replaced, so the text stays readable.
 */

import { type LoggerOptions, stdSerializers } from 'pino';

/** What replaces a secret. */
export const REDACTED = '[redacted]';

/**
 * Credential shapes: provider keys (`sk-…`, `sk-ant-…`, Google `AIza…`, GitHub `ghp_…`, Slack
 * `xox…-`), `Bearer`/`Basic` credentials, and `key=`/`api_key: `/`"token": "…"`-style pairs.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{8,}/g,
  /\bAIza[0-9A-Za-z_-]{20,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
];
const SCHEME_CREDENTIAL = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi;
const KEY_VALUE =
  /\b((?:x-)?(?:api[_-]?key|access[_-]?token|auth[_-]?token|token|secret|password|passwd|key|authorization)["']?\s*[:=]\s*["']?)(?!Bearer\b|Basic\b|\[redacted\])([^\s"'&,;}]{4,})/gi;

/** `text` with everything that looks like a credential replaced by {@link REDACTED}. */
export function redactSecrets(text: string): string {
  let result = text.replace(SCHEME_CREDENTIAL, (_match, scheme: string) => `${scheme} ${REDACTED}`);
  result = result.replace(KEY_VALUE, (_match, name: string) => `${name}${REDACTED}`);
  for (const pattern of SECRET_PATTERNS) result = result.replace(pattern, REDACTED);
  return result;
}

/** Longest nesting {@link redactValue} walks; deeper values are left out (they are logs or errors, not data). */
const MAX_REDACT_DEPTH = 8;

/**
 * A copy of `value` with every string redacted by {@link redactSecrets} (objects and arrays
 * copied, at most 8 levels deep: deeper parts become `'[too deep]'`).
 */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactSecrets(value);
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= MAX_REDACT_DEPTH) return '[too deep]';
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redactValue(item, depth + 1);
  return copy;
}

/**
 * pino options that pass every log line through {@link redactSecrets}: the message, string
 * fields, and errors (their message, stack and own fields). Spread them into `pino({...})`.
 */
export function redactingLogOptions(): Pick<LoggerOptions, 'formatters' | 'hooks' | 'serializers'> {
  return {
    formatters: {
      // Errors are left to the `err` serializer, which sees their message and stack.
      log: (object) =>
        Object.fromEntries(
          Object.entries(object).map(([key, value]) => [
            key,
            value instanceof Error ? value : redactValue(value),
          ]),
        ),
    },
    hooks: {
      logMethod(args, method) {
        const redacted = args.map((arg) => (typeof arg === 'string' ? redactSecrets(arg) : arg));
        method.apply(this, redacted as Parameters<typeof method>);
      },
    },
    serializers: {
      err: (error: unknown) => redactValue(error instanceof Error ? stdSerializers.err(error) : error),
    },
  };
}
