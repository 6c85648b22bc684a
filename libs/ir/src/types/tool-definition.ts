/** A tool the model may call. `parameters` is a JSON Schema object; targets convert it per provider. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
  tags?: string[];
}
