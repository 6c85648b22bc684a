import { GeminiAdapter } from '@flotilla/ir';
import type { ModelRequest, ToolChoice } from '@flotilla/runtime';
import type { FunctionCallingConfig, GenerateContentParameters } from '@google/genai';
import { FunctionCallingConfigMode } from '@google/genai';
import type { GeminiModelAdapterOptions } from './gemini-model-adapter-options.js';
import { signCurrentTurnCalls } from './sign-current-turn-calls.js';

const target = new GeminiAdapter();

/**
 * IR request → `generateContent` parameters: contents, `systemInstruction` and function
 * declarations compiled by the `@flotilla/ir` `gemini` target (function responses carry
 * their tool's name and call id; media returned by tools follows as `inlineData`), unsigned
 * calls of the current turn marked so Gemini 3 accepts them (see {@link signCurrentTurnCalls}),
 * then tool choice (a named function is `ANY` restricted to it), JSON structured output, sampling
 * options and the abort signal. The SDK's own retries are turned off here, per request.
 */
export function buildGeminiRequest(
  request: ModelRequest,
  options: GeminiModelAdapterOptions,
): GenerateContentParameters {
  const payload = target.compile(request.messages, {
    ...(request.tools ? { tools: request.tools } : {}),
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  });
  signCurrentTurnCalls(payload.messages, options.onWarning);
  const config: NonNullable<GenerateContentParameters['config']> = {
    ...options.extraConfig,
    httpOptions: { ...options.extraConfig?.httpOptions, retryOptions: { attempts: 1 } },
  };
  if (payload.systemInstruction) config.systemInstruction = payload.systemInstruction;
  if (payload.tools && payload.tools.length > 0) {
    config.tools = payload.tools;
    if (request.toolChoice)
      config.toolConfig = { functionCallingConfig: functionCalling(request.toolChoice) };
  }
  if (request.schema) {
    config.responseMimeType = 'application/json';
    config[options.schemaField ?? 'responseJsonSchema'] = request.schema.jsonSchema;
  }
  if (options.temperature !== undefined) config.temperature = options.temperature;
  if (options.maxTokens !== undefined) config.maxOutputTokens = options.maxTokens;
  if (request.signal) config.abortSignal = request.signal;
  return { model: options.model, contents: payload.messages, config };
}

function functionCalling(choice: ToolChoice): FunctionCallingConfig {
  if (choice === 'auto') return { mode: FunctionCallingConfigMode.AUTO };
  if (choice === 'none') return { mode: FunctionCallingConfigMode.NONE };
  if (choice === 'required') return { mode: FunctionCallingConfigMode.ANY };
  return { mode: FunctionCallingConfigMode.ANY, allowedFunctionNames: [choice.function.name] };
}
