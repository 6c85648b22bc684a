/** A zod schema (for `promptAgent`, `promptChat({ schema })` or a tool) has no JSON Schema form. */
export class SchemaConversionError extends Error {
  override readonly name = 'SchemaConversionError';

  constructor(site: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      `Could not convert the zod schema of ${site} to JSON Schema: ${reason}. Use JSON-representable ` +
        'types (no transforms, dates, bigints or custom types in schemas sent to the model).',
      { cause },
    );
  }

  static is(error: unknown): error is SchemaConversionError {
    return error instanceof Error && error.name === 'SchemaConversionError';
  }
}
