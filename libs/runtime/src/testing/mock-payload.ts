/**
 * What mock predicates and `thenDo` responders see: the request as the adapter received it,
 * plus the seed API's payload fields (`lastUserMessage`, `userMessages`), with `schema` readable
 * both ways — the seed's plain JSON Schema (`payload.schema.properties`) and ours
 * (`payload.schema.name`, `payload.schema.jsonSchema`).
 */
import type { ModelRequest, OutputSchema } from '../model/model-adapter.js';
import { lastUserText, userTexts } from './mock-condition.js';

/** The request with the seed's payload fields. */
export interface MockPayload extends Omit<ModelRequest, 'schema'> {
  /** The output JSON Schema (seed) that also carries ours as `name` / `jsonSchema`. */
  schema?: Record<string, unknown> & OutputSchema;
  /** The last user message's text (attachments as `[image]` …), when there is one. */
  lastUserMessage?: string;
  /** Every user message's text, in order. */
  userMessages: string[];
}

export function toMockPayload(request: ModelRequest): MockPayload {
  const { schema, ...rest } = request;
  const userMessages = userTexts(request.messages);
  const payload: MockPayload = { ...rest, userMessages };
  if (userMessages.length > 0) payload.lastUserMessage = lastUserText(request.messages);
  if (schema) payload.schema = bothSchemaShapes(schema);
  return payload;
}

function bothSchemaShapes(schema: OutputSchema): Record<string, unknown> & OutputSchema {
  const both = { ...schema.jsonSchema } as Record<string, unknown> & OutputSchema;
  // Not enumerable: a seed test comparing the schema with toEqual sees only the JSON Schema.
  Object.defineProperty(both, 'name', { value: schema.name, enumerable: false });
  Object.defineProperty(both, 'jsonSchema', { value: schema.jsonSchema, enumerable: false });
  return both;
}
