import { describe, expect, it } from 'vitest';
import { AnthropicAdapter } from '../anthropic/compile-anthropic.js';
import { parseChefSnapshot } from '../chef/chef-snapshot.js';
import { GeminiAdapter } from '../gemini/compile-gemini.js';
import { OpenAIResponsesAdapter } from '../openai-responses/compile-openai-responses.js';
import { fromOpenAIResponses } from '../openai-responses/from-openai-responses.js';
import { compileCollectingWarnings } from '../testing/compile-collecting-warnings.js';
import { PNG } from '../testing/sample-media.js';
import { toolCall } from '../testing/tool-call.js';
import { validationRejection as rejection } from '../testing/validation-rejection.js';
import type { Message } from '../types/message.js';
import type { ITargetAdapter } from '../types/target-adapter.js';
import { OpenAIAdapter } from './compile-openai.js';
import { fromOpenAI } from './from-openai.js';

const dataUrl = `data:image/png;base64,${PNG}`;

/** A user message with a low-detail inline image and a high-detail image by URL. */
const looking: Message = {
  role: 'user',
  content: 'compare',
  attachments: [
    { mediaType: 'image/png', data: PNG, source: 'base64', detail: 'low' },
    { mediaType: 'image/jpeg', data: 'https://example.com/cat.jpg', source: 'url', detail: 'high' },
  ],
};

describe('image detail', () => {
  describe('input adapters', () => {
    it('fromOpenAI keeps image_url.detail on the attachment', () => {
      const { history } = fromOpenAI([
        {
          role: 'user',
          content: [
            { type: 'image_url', image_url: { url: dataUrl, detail: 'low' } },
            { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'high' } },
            { type: 'image_url', image_url: { url: dataUrl } },
          ],
        },
      ]);
      expect(history[0]?.attachments).toEqual([
        { mediaType: 'image/png', data: PNG, source: 'base64', detail: 'low' },
        { mediaType: 'image/jpeg', data: 'https://example.com/cat.jpg', source: 'url', detail: 'high' },
        { mediaType: 'image/png', data: PNG, source: 'base64' },
      ]);
    });

    it('fromOpenAI refuses a detail Chat Completions does not take, naming the place', () => {
      const error = rejection(() =>
        fromOpenAI([
          { role: 'user', content: [{ type: 'image_url', image_url: { url: dataUrl, detail: 'max' } }] },
        ]),
      );
      expect(error.path).toBe('messages[0].content[0].image_url.detail');
      expect(error.message).toContain("'low'");
    });

    it('fromOpenAIResponses keeps input_image.detail, original included, and reads null as none', () => {
      const { history } = fromOpenAIResponses([
        {
          role: 'user',
          content: [
            { type: 'input_image', image_url: dataUrl, detail: 'original' },
            { type: 'input_image', file_id: 'file-abc', detail: 'low' },
            { type: 'input_image', image_url: dataUrl, detail: null },
          ],
        },
      ]);
      expect(history[0]?.attachments?.map((attachment) => attachment.detail)).toEqual([
        'original',
        'low',
        undefined,
      ]);
      const error = rejection(() =>
        fromOpenAIResponses([
          { role: 'user', content: [{ type: 'input_image', image_url: dataUrl, detail: 'HIGH' }] },
        ]),
      );
      expect(error.path).toBe('items[0].content[0].detail');
    });
  });

  describe('targets', () => {
    it('the openai target sends it in image_url, also for media moved out of a tool result', () => {
      const { payload, codes } = compileCollectingWarnings(new OpenAIAdapter(), [
        looking,
        { role: 'assistant', content: '', tool_calls: [toolCall('c1', 'shot')] },
        {
          role: 'tool',
          content: 'taken',
          tool_call_id: 'c1',
          attachments: [{ mediaType: 'image/png', data: PNG, source: 'base64', detail: 'high' }],
        },
      ]);
      expect(codes).toEqual([]);
      expect(payload.messages[0]).toEqual({
        role: 'user',
        content: [
          { type: 'text', text: 'compare' },
          { type: 'image_url', image_url: { url: dataUrl, detail: 'low' } },
          { type: 'image_url', image_url: { url: 'https://example.com/cat.jpg', detail: 'high' } },
        ],
      });
      expect(payload.messages[3]).toEqual({
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: dataUrl, detail: 'high' } }],
      });
    });

    it('the openai target leaves out original, which only Responses takes', () => {
      const { payload } = compileCollectingWarnings(new OpenAIAdapter(), [
        {
          role: 'user',
          content: '',
          attachments: [{ mediaType: 'image/png', data: PNG, detail: 'original' }],
        },
      ]);
      expect(payload.messages[0]).toEqual({
        role: 'user',
        content: [{ type: 'image_url', image_url: { url: dataUrl } }],
      });
    });

    it('the openai-responses target sends it on input_image, file ids included', () => {
      const { payload, codes } = compileCollectingWarnings(new OpenAIResponsesAdapter(), [
        {
          ...looking,
          attachments: [
            ...(looking.attachments ?? []),
            { mediaType: 'image/png', data: 'file-abc', source: 'file-id', detail: 'original' },
          ],
        },
      ]);
      expect(codes).toEqual([]);
      expect(payload.input[0]).toEqual({
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_text', text: 'compare' },
          { type: 'input_image', image_url: dataUrl, detail: 'low' },
          { type: 'input_image', image_url: 'https://example.com/cat.jpg', detail: 'high' },
          { type: 'input_image', file_id: 'file-abc', detail: 'original' },
        ],
      });
    });

    it('anthropic and gemini have no such setting: the image is sent without it, with no warning', () => {
      const adapters: ITargetAdapter[] = [new AnthropicAdapter(), new GeminiAdapter()];
      for (const adapter of adapters) {
        const { payload, codes } = compileCollectingWarnings(adapter, [looking]);
        expect(codes).toEqual([]);
        expect(JSON.stringify(payload)).not.toContain('detail');
      }
    });
  });

  it('is checked when a snapshot is read back', () => {
    const snapshot = {
      schemaVersion: 1,
      system: [],
      history: [
        { role: 'user', content: '', attachments: [{ mediaType: 'image/png', data: PNG, detail: 'huge' }] },
      ],
    };
    expect(rejection(() => parseChefSnapshot(snapshot)).path).toBe('history[0].attachments[0].detail');
  });
});
