/**
 * The text of a tool result that returned only media, on targets that move tool-result media
 * into a following user message (OpenAI, Gemini, Responses).
 */
export const TOOL_MEDIA_FOLLOWS_TEXT = '[The tool returned media; it follows in the next message.]';
