/** A tool the model may call. `parameters` is a JSON Schema object; targets convert it per provider. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters?: Record<string, unknown>;
  /** Ours, for choosing tools; never sent. */
  tags?: string[];
  /**
   * Leave the tool out of the model's context until Anthropic's tool search finds it: the
   * `anthropic` target sends `defer_loading: true` (add a tool-search server tool to the
   * payload's `tools` yourself). Other targets have no such setting and send the tool as usual.
   */
  deferLoading?: boolean;
}
