import type { WarningSink } from '../shared/warning-sink.js';
import type { ToolDefinition } from '../types/tool-definition.js';
import { type GeminiSchemaAdaptation, toGeminiSchema } from './gemini-schema.js';
import type { GeminiFunctionDeclaration, GeminiTool } from './gemini-wire.js';

/** What each adaptation code means, for the warning text. */
const ADAPTATION_SUMMARY: Record<GeminiSchemaAdaptation['code'], string> = {
  'tool-schema-ref-inlined': 'inlined $ref (Gemini parameters have no references)',
  'tool-schema-recursion-cut': 'cut a recursive schema',
  'tool-schema-keyword-dropped': 'dropped what Gemini parameters do not support',
  'tool-schema-rewritten': 'rewrote into the form Gemini parameters support',
};

/**
 * Converts tool definitions to Gemini tools: one `{ functionDeclarations: [...] }` entry.
 * `parameters` is the tool's JSON Schema rewritten into Gemini's OpenAPI subset (see
 * {@link toGeminiSchema}); each kind of change is one `CompileWarning` per tool naming the tool
 * and the paths (`tool-schema-ref-inlined`, `tool-schema-recursion-cut`,
 * `tool-schema-keyword-dropped`, `tool-schema-rewritten`). We use `parameters` rather than
 * `parametersJsonSchema` because every Gemini API version accepts it. A tool with no properties
 * is declared without `parameters` (Gemini rejects an object schema with empty `properties`).
 * `tags` are never sent.
 */
export function toGeminiTools(tools: ToolDefinition[], sink?: WarningSink): GeminiTool[] {
  return [{ functionDeclarations: tools.map((tool) => toDeclaration(tool, sink)) }];
}

function toDeclaration(tool: ToolDefinition, sink: WarningSink | undefined): GeminiFunctionDeclaration {
  const declaration: GeminiFunctionDeclaration = { name: tool.name };
  if (tool.description) declaration.description = tool.description;
  const adaptations: GeminiSchemaAdaptation[] = [];
  const parameters = tool.parameters
    ? toGeminiSchema(tool.parameters, (adaptation) => adaptations.push(adaptation))
    : undefined;
  if (parameters?.properties) declaration.parameters = parameters;
  if (sink) reportAdaptations(tool.name, adaptations, sink);
  return declaration;
}

/** One warning per tool and kind of change, listing where (`/properties/addr: $ref #/$defs/A`). */
function reportAdaptations(toolName: string, adaptations: GeminiSchemaAdaptation[], sink: WarningSink): void {
  const byCode = new Map<GeminiSchemaAdaptation['code'], GeminiSchemaAdaptation[]>();
  for (const adaptation of adaptations)
    byCode.set(adaptation.code, [...(byCode.get(adaptation.code) ?? []), adaptation]);
  for (const [code, list] of byCode) {
    const where = list.map((adaptation) => `${adaptation.path}: ${adaptation.detail}`).join('; ');
    sink.warn(code, `tool "${toolName}": ${ADAPTATION_SUMMARY[code]}: ${where}`);
  }
}
