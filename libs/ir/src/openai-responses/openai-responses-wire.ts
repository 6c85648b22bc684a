/**
 * Minimal declarations of the OpenAI Responses API input shapes that `@flotilla/ir` reads and
 * writes. Our own types, not the SDK's.
 */

export interface ResponsesInputText {
  type: 'input_text';
  text: string;
}

/**
 * An image by URL (`http(s)` or `data:`) or uploaded `file_id`. Our target sends `detail` only
 * when the attachment has one (the API defaults it to `auto`), so round-trips stay exact.
 */
export interface ResponsesInputImage {
  type: 'input_image';
  image_url?: string;
  file_id?: string;
  detail?: 'low' | 'high' | 'auto' | 'original' | null;
}

/** A file by `data:` URL (`file_data`), URL (`file_url`) or uploaded `file_id`. */
export interface ResponsesInputFile {
  type: 'input_file';
  file_data?: string;
  file_url?: string;
  file_id?: string;
  filename?: string;
}

export interface ResponsesOutputText {
  type: 'output_text';
  text: string;
  annotations?: unknown[];
}

export interface ResponsesRefusal {
  type: 'refusal';
  refusal: string;
}

/** Parts of a user / system / developer message. */
export type ResponsesInputContentPart = ResponsesInputText | ResponsesInputImage | ResponsesInputFile;

/** A user, system or developer message item. `content` may be a plain string on input. */
export interface ResponsesInputMessage {
  type?: 'message';
  role: 'user' | 'system' | 'developer';
  content: string | ResponsesInputContentPart[];
}

/** An assistant message item (model output replayed as input). */
export interface ResponsesOutputMessage {
  type?: 'message';
  role: 'assistant';
  content: string | Array<ResponsesOutputText | ResponsesRefusal>;
  id?: string;
  status?: 'in_progress' | 'completed' | 'incomplete';
}

/** A function call the model made; `arguments` is JSON text. */
export interface ResponsesFunctionCall {
  type: 'function_call';
  call_id: string;
  name: string;
  arguments: string;
  id?: string;
  status?: 'in_progress' | 'completed' | 'incomplete';
}

/** The client's result for `call_id`. Our target always sends text (see the target's doc). */
export interface ResponsesFunctionCallOutput {
  type: 'function_call_output';
  call_id: string;
  output: string | ResponsesInputContentPart[];
  id?: string;
  status?: 'in_progress' | 'completed' | 'incomplete';
}

/**
 * A reasoning item. Kept opaque beyond `type` and `id`: it must go back byte-identical
 * (`encrypted_content`, `summary`, future fields).
 */
export interface ResponsesReasoningItem {
  type: 'reasoning';
  id?: string;
  encrypted_content?: string | null;
  summary?: unknown[];
  [key: string]: unknown;
}

/** Any item of `input` that `@flotilla/ir` understands. */
export type ResponsesInputItem =
  | ResponsesInputMessage
  | ResponsesOutputMessage
  | ResponsesFunctionCall
  | ResponsesFunctionCallOutput
  | ResponsesReasoningItem;

/**
 * A function tool in the Responses API's flat shape. `strict` is explicit because the Responses
 * API treats a missing value as strict mode, which rejects most hand-written schemas.
 */
export interface ResponsesFunctionTool {
  type: 'function';
  name: string;
  description?: string;
  parameters: Record<string, unknown> | null;
  strict: boolean | null;
}
