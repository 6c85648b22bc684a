/**
 * The rules a configuration value can follow. Each is a zod schema every value must pass,
 * whether it comes from code (an option) or from an environment variable, plus how the
 * variable's text becomes a value to check. Each schema's messages state what is expected, as
 * `InvalidConfigError` quotes them. Tightening a field is one line in its setting, e.g.
 * `wholeNumber({ min: 1, max: 256 })`.
 */
import { z } from 'zod';
import { InvalidRedisUrlError, parseRedisEndpoint, REDIS_URL_FORMS } from './redis-endpoint.js';

/** How values of one kind are checked and read from environment text. */
export interface ConfigRule<T> {
  /** Checks a value; its issue messages say what is expected ("a whole number greater than 0"). */
  readonly schema: z.ZodType<T>;
  /** Turns the (trimmed, non-empty) text of an environment variable into a value for `schema`. */
  readonly fromText: (text: string) => unknown;
}

/** A whole number from `min` (default 0) to `max` (default the largest safe integer); text must be digits only. */
export function wholeNumber(
  options: { min?: number; max?: number; expected?: string } = {},
): ConfigRule<number> {
  const min = options.min ?? 0;
  const max = options.max ?? Number.MAX_SAFE_INTEGER;
  const expected = options.expected ?? describeRange(min, max);
  return {
    schema: z.int({ error: expected }).min(min, { error: expected }).max(max, { error: expected }),
    // Digits only: "2.5", "1e3", "-1" and "0x10" stay text, which the schema rejects.
    fromText: (text) => (/^\d+$/.test(text) ? Number(text) : text),
  };
}

function describeRange(min: number, max: number): string {
  if (max !== Number.MAX_SAFE_INTEGER) return `a whole number from ${min} to ${max}`;
  return min === 0 ? 'a whole number, 0 or more' : `a whole number greater than ${min - 1}`;
}

/** A TCP port; 0 lets the system pick a free one. */
export const port: ConfigRule<number> = wholeNumber({
  max: 65_535,
  expected: 'a port number from 0 to 65535',
});

/** Any text. */
export const anyText: ConfigRule<string> = { schema: z.string(), fromText: (text) => text };

/**
 * A `redis://` or `rediss://` URL, or a Redis Cluster's `redis+cluster://host:port[,host:port…]`
 * (see `redis-endpoint.ts`); the message names what is wrong with it.
 */
export const redisUrl: ConfigRule<string> = {
  schema: z.string().superRefine((text, context) => {
    try {
      parseRedisEndpoint(text);
    } catch (error) {
      if (!(error instanceof InvalidRedisUrlError)) throw error;
      context.addIssue({ code: 'custom', message: `${REDIS_URL_FORMS} (${error.message})` });
    }
  }),
  fromText: (text) => text,
};

/** A name that goes into Redis keys: no spaces or braces (hash tags). */
export const keyName: ConfigRule<string> = {
  schema: z.string().regex(/^[A-Za-z0-9_.:-]+$/, {
    error: 'letters, digits, `_`, `.`, `:` or `-` only (no spaces or braces)',
  }),
  fromText: (text) => text,
};

/** What a build label is made of (it becomes part of a queue name when runs are pinned to builds). */
export const BUILD_LABEL = /^[A-Za-z0-9_.+-]{1,128}$/;
const BUILD_LABEL_RULE = '1 to 128 letters, digits, `_`, `.`, `+` or `-`';

/**
 * A build label (a version, a commit), or unset: 1 to 128 letters, digits, `_`, `.`, `+` or
 * `-` (it may become part of a queue name when runs are routed by build).
 */
export const buildLabel: ConfigRule<string | undefined> = {
  schema: z
    .string()
    .regex(BUILD_LABEL, { error: `${BUILD_LABEL_RULE} (a version or a commit)` })
    .optional(),
  fromText: (text) => text,
};

/** The most builds one worker declares compatible (each is one more queue per agent it consumes). */
export const MAX_COMPATIBLE_BUILDS = 32;

/**
 * A list of build labels (comma-separated in the variable), each as {@link buildLabel}, at most
 * {@link MAX_COMPATIBLE_BUILDS}, no repeats.
 */
export const buildList: ConfigRule<string[]> = {
  schema: z
    .array(z.string().regex(BUILD_LABEL, { error: `builds of ${BUILD_LABEL_RULE}` }), {
      error: `a comma-separated list of builds of ${BUILD_LABEL_RULE}`,
    })
    .max(MAX_COMPATIBLE_BUILDS, { error: `at most ${MAX_COMPATIBLE_BUILDS} builds` })
    .refine((builds) => new Set(builds).size === builds.length, { error: 'builds listed once each' }),
  fromText: splitCommaList,
};

/** A comma-separated list in the variable (blank entries dropped), with at least `min` entries. */
export function commaList(options: { min?: number; expected: string }): ConfigRule<string[]> {
  return {
    schema: z
      .array(z.string(), { error: options.expected })
      .min(options.min ?? 0, { error: options.expected }),
    fromText: splitCommaList,
  };
}

/** The entries of a comma-separated variable, trimmed, blank ones dropped. */
function splitCommaList(text: string): string[] {
  return text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/** A path to a file (its contents are read where it is used), or unset. */
export const filePath: ConfigRule<string | undefined> = {
  schema: z
    .string({ error: 'a file path' })
    .min(1, { error: 'a file path' })
    .max(4096, { error: 'a file path' })
    .optional(),
  fromText: (text) => text,
};

/** A secret of at least `minLength` characters, or unset. */
export function secret(options: { minLength: number; expected: string }): ConfigRule<string | undefined> {
  return {
    schema: z.string().min(options.minLength, { error: options.expected }).optional(),
    fromText: (text) => text,
  };
}

/**
 * A JSON value checked by `schema` (e.g. a list of objects); the variable holds its JSON text.
 * Text that is not JSON stays text, which the schema refuses with its own message.
 */
export function json<T>(schema: z.ZodType<T>): ConfigRule<T> {
  return {
    schema,
    fromText: (text) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        return text;
      }
    },
  };
}

/** One of `values`; environment text is matched case-insensitively. */
export function oneOf<const T extends string>(values: readonly [T, ...T[]]): ConfigRule<T> {
  return {
    schema: z.enum(values, { error: `one of ${values.join(', ')}` }) as unknown as z.ZodType<T>,
    fromText: (text) => text.toLowerCase(),
  };
}
