/**
 * Minimal declarations of the Gemini `generateContent` request shapes that `@flotilla/ir`
 * reads and writes. Our own types, not `@google/genai`'s; fields are optional where the SDK's
 * are, so SDK values can be passed to the input adapter and our payload to the SDK.
 */

/** Inline bytes: raw base64 (no `data:` prefix). */
export interface GeminiBlob {
  mimeType?: string;
  data?: string;
}

/** A file by URI: a Files API URI, a `gs://` URI or an `http(s)` URL. */
export interface GeminiFileData {
  mimeType?: string;
  fileUri?: string;
}

/** A function call made by the model; `args` is the parsed arguments object. */
export interface GeminiFunctionCall {
  id?: string;
  name?: string;
  args?: Record<string, unknown>;
}

/** A function result sent back by the client; `response` must be an object (a Struct). */
export interface GeminiFunctionResponse {
  id?: string;
  name?: string;
  response?: Record<string, unknown>;
}

/**
 * One part of a content. Exactly one data field (`text`, `inlineData`, `fileData`,
 * `functionCall`, `functionResponse`) is set; `thoughtSignature` may accompany any of them.
 */
export interface GeminiPart {
  text?: string;
  /** `true` on thought-summary text parts. */
  thought?: boolean;
  /** Opaque signature to send back in the same part position (Gemini 3 requires it on calls). */
  thoughtSignature?: string;
  inlineData?: GeminiBlob;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
}

/** One turn: `user` (also carries function responses) or `model`. */
export interface GeminiContent {
  role?: 'user' | 'model' | (string & {});
  parts?: GeminiPart[];
}

/** A text-only part, as used in `systemInstruction`. */
export interface GeminiTextPart {
  text: string;
}

/** The `systemInstruction` parameter. */
export interface GeminiSystemInstruction {
  parts: GeminiTextPart[];
}

/**
 * A function the model may call. `parameters` takes Gemini's OpenAPI-subset schema;
 * `parametersJsonSchema` takes plain JSON Schema (newer API). Set one, not both.
 */
export interface GeminiFunctionDeclaration {
  name: string;
  description?: string;
  parameters?: Record<string, unknown>;
  parametersJsonSchema?: unknown;
}

/** One entry of `tools`. */
export interface GeminiTool {
  functionDeclarations?: GeminiFunctionDeclaration[];
}
