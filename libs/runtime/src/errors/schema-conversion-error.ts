import { errorGuard, FlotillaError } from '@flotilla/ir';

/** A zod schema (for `promptAgent`, `promptChat({ schema })` or a tool) has no JSON Schema form. */
export class SchemaConversionError extends FlotillaError {
  static override readonly errorName = 'SchemaConversionError';
  static override readonly is = errorGuard(this);

  constructor(site: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Could not convert the zod schema of ${site} to JSON Schema: ${reason}. Use JSON-representable ` +
        'types (no transforms, dates, bigints or custom types in schemas sent to the model).',
      { cause },
    );
  }
}
