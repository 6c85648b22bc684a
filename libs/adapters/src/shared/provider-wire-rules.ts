/**
 * The request rules each provider enforces that a conversation moved between providers can
 * break, checked the way the provider would (a request it would answer with 400 breaks at
 * least one). Test support for the local wire servers: `startProviderTestServer({ validate })`
 * answers 400 with the problems, as the provider would. Not exported by any entry point.
 */

type Json = Record<string, unknown>;
type Rules = (body: unknown) => string[];

const records = (value: unknown): Json[] =>
  Array.isArray(value) ? value.filter((item): item is Json => typeof item === 'object' && item !== null) : [];

/** OpenAI Chat Completions: every call answered by tool messages right after it, nothing foreign. */
export const chatCompletionsRules: Rules = (body) => {
  const problems: string[] = [];
  const messages = records((body as Json).messages);
  const allowed = new Set(['role', 'content', 'name', 'tool_calls', 'tool_call_id', 'refusal']);
  let open = new Set<string>();
  messages.forEach((message, index) => {
    for (const key of Object.keys(message))
      if (!allowed.has(key)) problems.push(`messages[${index}]: unknown field '${key}'`);
    if (message.role === 'tool') {
      const id = String(message.tool_call_id);
      if (!open.delete(id))
        problems.push(`messages[${index}]: tool message for '${id}' does not answer a preceding tool call`);
      if (typeof message.content !== 'string') problems.push(`messages[${index}]: tool content must be text`);
      return;
    }
    if (open.size > 0)
      problems.push(`messages[${index}]: tool calls ${[...open].join(', ')} have no tool message`);
    open = new Set(records(message.tool_calls).map((call) => String(call.id)));
    const parts = records(message.content);
    if (message.role !== 'user' && parts.some((part) => part.type !== 'text'))
      problems.push(`messages[${index}]: only user messages take media`);
  });
  if (open.size > 0) problems.push(`tool calls ${[...open].join(', ')} have no tool message`);
  return problems;
};

/** OpenAI Responses: calls and outputs paired by call_id, reasoning followed by its item, media from the user. */
export const responsesRules: Rules = (body) => {
  const problems: string[] = [];
  const items = records((body as Json).input);
  const calls = new Set<string>();
  const outputs = new Set<string>();
  items.forEach((item, index) => {
    if (item.type === 'function_call') calls.add(String(item.call_id));
    if (item.type === 'function_call_output') {
      if (!calls.has(String(item.call_id)))
        problems.push(`input[${index}]: no function call found for output '${item.call_id}'`);
      if (typeof item.output !== 'string')
        problems.push(`input[${index}]: function_call_output output must be text`);
      outputs.add(String(item.call_id));
    }
    if (item.type === 'reasoning' && (index === items.length - 1 || items[index + 1]?.type === 'reasoning'))
      problems.push(`input[${index}]: reasoning item provided without its required following item`);
    const parts = records(item.content);
    if (item.role === 'assistant' && parts.some((part) => part.type !== 'output_text'))
      problems.push(`input[${index}]: assistant content must be output_text`);
    if (
      item.role === 'user' &&
      parts.some((part) => !['input_text', 'input_image', 'input_file'].includes(String(part.type)))
    )
      problems.push(`input[${index}]: user content must be input parts`);
  });
  for (const id of calls)
    if (!outputs.has(id)) problems.push(`no tool output found for function call '${id}'`);
  return problems;
};

/**
 * Gemini: function responses right after the call turn and as many as its calls; a call turn
 * after a user or function-response turn; in the current turn (after the last user content
 * with text) the first `functionCall` of every step signed (Gemini 3).
 */
export const geminiRules: Rules = (body) => {
  const problems: string[] = [];
  const contents = records((body as Json).contents);
  const parts = (content: Json | undefined): Json[] => records(content?.parts);
  const dataFields = ['text', 'inlineData', 'fileData', 'functionCall', 'functionResponse'];
  if (contents[0]?.role !== 'user') problems.push('contents[0]: the first content must be a user turn');
  contents.forEach((content, index) => {
    parts(content).forEach((part, partIndex) => {
      const set = dataFields.filter((field) => part[field] !== undefined);
      if (set.length !== 1)
        problems.push(
          `contents[${index}].parts[${partIndex}]: exactly one data field, got ${set.join(', ')}`,
        );
    });
    const responses = parts(content).filter((part) => part.functionResponse).length;
    if (responses > 0) {
      const calls = parts(contents[index - 1]).filter((part) => part.functionCall).length;
      if (contents[index - 1]?.role !== 'model' || calls !== responses)
        problems.push(
          `contents[${index}]: ${responses} function responses must follow a turn of as many function calls (got ${calls})`,
        );
    }
    if (
      content.role === 'model' &&
      parts(content).some((part) => part.functionCall) &&
      contents[index - 1]?.role !== 'user'
    )
      problems.push(
        `contents[${index}]: a function call turn must come right after a user or function response turn`,
      );
  });
  const turnStart = contents.findLastIndex(
    (content) => content.role === 'user' && parts(content).some((part) => part.text !== undefined),
  );
  contents.forEach((content, index) => {
    if (index <= turnStart || content.role !== 'model') return;
    const first = parts(content).find((part) => part.functionCall);
    if (first && typeof first.thoughtSignature !== 'string')
      problems.push(`contents[${index}]: function call in the current turn is missing a thought_signature`);
  });
  return problems;
};

/**
 * Anthropic Messages: a user turn first; each `tool_use` answered by a `tool_result` at the
 * start of the next user turn; thinking signed and only from the assistant; with thinking on,
 * the assistant turn of an unfinished tool loop starts with a thinking block and tool choice
 * is not forced; at most 4 cache breakpoints.
 */
export const anthropicRules: Rules = (body) => {
  const problems: string[] = [];
  const request = body as Json;
  const messages = records(request.messages);
  const blocks = (message: Json | undefined): Json[] =>
    typeof message?.content === 'string'
      ? [{ type: 'text', text: message.content }]
      : records(message?.content);
  if (messages[0]?.role !== 'user') problems.push('messages[0]: the first message must use the user role');
  messages.forEach((message, index) => {
    const content = blocks(message);
    for (const block of content) {
      if ((block.type === 'thinking' || block.type === 'redacted_thinking') && message.role !== 'assistant')
        problems.push(`messages[${index}]: thinking blocks belong to assistant turns`);
      if (block.type === 'thinking' && !block.signature)
        problems.push(`messages[${index}]: thinking.signature: Field required`);
      if ((block.type === 'image' || block.type === 'document') && message.role !== 'user')
        problems.push(`messages[${index}]: media only in user turns`);
    }
    const uses = content.filter((block) => block.type === 'tool_use').map((block) => String(block.id));
    if (uses.length === 0) return;
    const next = blocks(messages[index + 1]);
    const firstOther = next.findIndex((block) => block.type !== 'tool_result');
    const leading = firstOther === -1 ? next : next.slice(0, firstOther);
    const answered = new Set(leading.map((block) => String(block.tool_use_id)));
    const missing = uses.filter((id) => !answered.has(id));
    if (index + 1 < messages.length && missing.length > 0)
      problems.push(
        `messages[${index + 1}]: tool_use ids ${missing.join(', ')} were found without tool_result blocks immediately after`,
      );
  });
  messages.forEach((message, index) => {
    const results = blocks(message).filter((block) => block.type === 'tool_result');
    const uses = new Set(
      blocks(messages[index - 1])
        .filter((block) => block.type === 'tool_use')
        .map((block) => String(block.id)),
    );
    for (const result of results)
      if (!uses.has(String(result.tool_use_id)))
        problems.push(
          `messages[${index}]: unexpected tool_use_id '${result.tool_use_id}' in tool_result blocks`,
        );
  });
  const thinking = request.thinking as Json | undefined;
  if (thinking && thinking.type !== 'disabled') {
    const last = messages.at(-1);
    const inToolLoop = last?.role === 'user' && blocks(last).some((block) => block.type === 'tool_result');
    const turnStart = messages.findLastIndex(
      (message) => message.role === 'user' && !blocks(message).some((block) => block.type === 'tool_result'),
    );
    const first = blocks(messages[turnStart + 1])[0];
    if (inToolLoop && first?.type !== 'thinking' && first?.type !== 'redacted_thinking')
      problems.push(
        "messages: expected 'thinking' or 'redacted_thinking' first in the assistant turn of a tool loop when thinking is enabled",
      );
    const choice = (request.tool_choice as Json | undefined)?.type;
    if (choice === 'any' || choice === 'tool')
      problems.push('thinking may not be enabled when tool_choice forces tool use');
  }
  const breakpoints =
    countCacheControls([request.system, request.messages, request.tools]) + (request.cache_control ? 1 : 0);
  if (breakpoints > 4)
    problems.push(`a maximum of 4 blocks with cache_control may be provided, found ${breakpoints}`);
  return problems;
};

function countCacheControls(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + countCacheControls(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  return Object.entries(value).reduce(
    (sum, [key, item]) => sum + (key === 'cache_control' && item ? 1 : countCacheControls(item)),
    0,
  );
}
