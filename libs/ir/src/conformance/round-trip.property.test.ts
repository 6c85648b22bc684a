import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Attachment,
  type BuiltinTargetProvider,
  fromAnthropic,
  fromGemini,
  fromOpenAI,
  fromOpenAIResponses,
  getAdapter,
  type ImageDetail,
  type Message,
  type ParsedMessages,
  type ToolCall,
} from '../index.js';

/**
 * Property: IR → target payload → the matching input adapter → IR gives back the same IR, for
 * every feature that target carries. Each target gets a generator of exactly those features.
 */
interface Features {
  attachments: fc.Arbitrary<Attachment>[];
  /** Anthropic: signed thinking and redacted thinking on assistant messages. */
  thinking?: boolean;
  /** Gemini: thought signatures on function calls and on assistant text. */
  geminiSignatures?: boolean;
  /** Responses: raw reasoning items on assistant messages. */
  reasoning?: boolean;
  /** Anthropic: media inside tool results. */
  toolResultMedia?: boolean;
  /** Gemini: function responses are JSON objects, so tool results are JSON object text. */
  jsonToolResults?: boolean;
  /** Chat Completions: the participant `name` of user messages. */
  participantNames?: boolean;
}

/** Images with an OpenAI `detail` picked from `details` (or none). */
function withDetail(
  images: fc.Arbitrary<Attachment>,
  details: readonly ImageDetail[],
): fc.Arbitrary<Attachment> {
  return fc
    .tuple(images, fc.option(fc.constantFrom(...details), { nil: undefined }))
    .map(([image, detail]) => (detail === undefined ? image : { ...image, detail }));
}

const base64 = fc
  .uint8Array({ minLength: 1, maxLength: 12 })
  .map((bytes) => Buffer.from(bytes).toString('base64'));
const word = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const text = fc.string({ minLength: 1, maxLength: 24 });

const pngInline = base64.map((data): Attachment => ({ mediaType: 'image/png', data, source: 'base64' }));
const jpegUrl = word.map(
  (name): Attachment => ({
    mediaType: 'image/jpeg',
    data: `https://example.com/img/${name}.jpg`,
    source: 'url',
  }),
);
const pdfInline = (withName: boolean) =>
  fc.tuple(base64, word).map(
    ([data, name]): Attachment => ({
      mediaType: 'application/pdf',
      data,
      source: 'base64',
      ...(withName ? { filename: `${name}.pdf` } : {}),
    }),
  );
const pdfUrl = word.map(
  (name): Attachment => ({
    mediaType: 'application/pdf',
    data: `https://example.com/docs/${name}.pdf`,
    source: 'url',
  }),
);
const gcsVideo = word.map(
  (name): Attachment => ({ mediaType: 'video/mp4', data: `gs://bucket/${name}.mp4`, source: 'url' }),
);

const jsonObjectText = fc
  .dictionary(word, fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean()), { maxKeys: 3 })
  .map((value) => JSON.stringify(value));

function conversation(features: Features): fc.Arbitrary<ParsedMessages> {
  const attachments =
    features.attachments.length > 0
      ? fc.array(fc.oneof(...features.attachments), { maxLength: 2 })
      : fc.constant([]);
  const participant = features.participantNames
    ? fc.option(word, { nil: undefined })
    : fc.constant(undefined);
  const user = fc
    .tuple(text, attachments, participant)
    .map(
      ([content, media, name]): Message =>
        withMedia(name === undefined ? { role: 'user', content } : { role: 'user', content, name }, media),
    );
  const assistantExtras = fc.record(
    {
      thinking: features.thinking ? fc.record({ thinking: text, signature: word }) : fc.constant(undefined),
      redacted_thinking: features.thinking ? fc.record({ data: word }) : fc.constant(undefined),
      _gemini_thought_signature: features.geminiSignatures ? word : fc.constant(undefined),
      _openai_reasoning: features.reasoning
        ? fc
            .tuple(word, word)
            .map(([id, secret]) => [
              { type: 'reasoning', id: `rs_${id}`, encrypted_content: `enc-${secret}==`, summary: [] },
            ])
        : fc.constant(undefined),
    },
    { requiredKeys: [] },
  );
  const callShape = fc.record({
    name: fc.constantFrom('lookup', 'search', 'fetch_page'),
    arguments: jsonObjectText,
    thoughtSignature: features.geminiSignatures
      ? fc.option(word, { nil: undefined })
      : fc.constant(undefined),
  });
  const resultText = features.jsonToolResults ? jsonObjectText : text;
  const resultMedia = features.toolResultMedia ? fc.array(pngInline, { maxLength: 1 }) : fc.constant([]);
  const toolTurn = fc.record({
    content: fc.oneof(fc.constant(''), text),
    extras: assistantExtras,
    calls: fc.array(fc.record({ call: callShape, result: resultText, media: resultMedia }), {
      minLength: 1,
      maxLength: 3,
    }),
  });
  const exchange = fc.record({
    user,
    toolTurns: fc.array(toolTurn, { maxLength: 2 }),
    reply: fc.record({ content: text, extras: assistantExtras }),
  });
  return fc
    .record({
      system: fc.array(text, { maxLength: 2 }),
      exchanges: fc.array(exchange, { minLength: 1, maxLength: 3 }),
      last: user,
    })
    .map(({ system, exchanges, last }) => {
      let callCount = 0;
      const history: Message[] = [];
      for (const { user: userMessage, toolTurns, reply } of exchanges) {
        history.push(userMessage);
        for (const turn of toolTurns) {
          const calls: ToolCall[] = turn.calls.map(({ call }) => {
            callCount += 1;
            const toolCall: ToolCall = {
              id: `call_${callCount}`,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            };
            if (call.thoughtSignature !== undefined) toolCall.thoughtSignature = call.thoughtSignature;
            return toolCall;
          });
          history.push(
            withExtras({ role: 'assistant', content: turn.content, tool_calls: calls }, turn.extras),
          );
          turn.calls.forEach(({ result, media }, index) => {
            const call = calls[index] as ToolCall;
            history.push(
              withMedia(
                { role: 'tool', content: result, tool_call_id: call.id, name: call.function.name },
                media,
              ),
            );
          });
        }
        history.push(withExtras({ role: 'assistant', content: reply.content }, reply.extras));
      }
      history.push(last);
      return {
        system: system.map((content): Message => ({ role: 'system', content })),
        history,
      } as ParsedMessages;
    });
}

function withMedia(message: Message, media: readonly Attachment[]): Message {
  return media.length > 0 ? { ...message, attachments: [...media] } : message;
}

function withExtras(message: Message, extras: Partial<Message>): Message {
  const result = { ...message };
  for (const [key, value] of Object.entries(extras)) if (value !== undefined) result[key] = value;
  return result;
}

interface TargetCase {
  target: BuiltinTargetProvider;
  features: Features;
  back: (payload: Record<string, unknown>) => ParsedMessages;
  /** What the target does to system messages that the input adapter cannot undo. */
  expectedSystem?: (system: Message[]) => Message[];
}

const cases: TargetCase[] = [
  {
    target: 'openai',
    features: {
      attachments: [
        withDetail(pngInline, ['auto', 'low', 'high']),
        withDetail(jpegUrl, ['low']),
        pdfInline(true),
      ],
      participantNames: true,
    },
    back: (payload) => fromOpenAI(payload.messages),
  },
  {
    target: 'anthropic',
    features: {
      attachments: [pngInline, jpegUrl, pdfInline(true), pdfUrl],
      thinking: true,
      toolResultMedia: true,
    },
    back: (payload) => fromAnthropic(payload.messages, payload.system),
  },
  {
    target: 'gemini',
    features: {
      attachments: [pngInline, jpegUrl, pdfInline(false), gcsVideo],
      geminiSignatures: true,
      jsonToolResults: true,
    },
    back: (payload) => fromGemini(payload.messages, payload.systemInstruction),
  },
  {
    target: 'openai-responses',
    features: {
      attachments: [
        withDetail(pngInline, ['original', 'high']),
        withDetail(jpegUrl, ['auto']),
        pdfInline(true),
        pdfUrl,
      ],
      reasoning: true,
    },
    back: (payload) => fromOpenAIResponses(payload.input, payload.instructions as string | undefined),
    // Responses has one `instructions` string: the system messages come back as one.
    expectedSystem: (system) =>
      system.length === 0 ? [] : [{ role: 'system', content: system.map((m) => m.content).join('\n\n') }],
  },
];

describe('round trip IR → target → input adapter → IR', () => {
  for (const { target, features, back, expectedSystem } of cases) {
    it(`keeps everything the ${target} target carries, with no warnings`, () => {
      fc.assert(
        fc.property(conversation(features), ({ system, history }) => {
          const warnings: string[] = [];
          const payload = getAdapter(target).compile([...system, ...history], {
            onWarning: (warning) => warnings.push(warning.code),
          });
          const parsed = back(payload as unknown as Record<string, unknown>);
          expect(warnings).toEqual([]);
          expect(parsed.system).toEqual(expectedSystem ? expectedSystem(system) : system);
          expect(parsed.history).toEqual(history);
        }),
      );
    });
  }

  it('keeps OpenAI Responses reasoning items byte-identical, as the same objects', () => {
    fc.assert(
      fc.property(conversation({ attachments: [], reasoning: true }), ({ system, history }) => {
        const payload = getAdapter('openai-responses').compile([...system, ...history]);
        const parsed = fromOpenAIResponses(payload.input, payload.instructions);
        const before = history.flatMap((m) => m._openai_reasoning ?? []);
        const after = parsed.history.flatMap((m) => m._openai_reasoning ?? []);
        expect(after).toHaveLength(before.length);
        after.forEach((item, index) => {
          expect(item).toBe(before[index]);
        });
      }),
    );
  });
});
