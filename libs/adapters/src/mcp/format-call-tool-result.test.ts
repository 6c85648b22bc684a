import { isToolContent, TOOL_CONTENT_KEY } from '@flotilla/runtime';
import { describe, expect, it } from 'vitest';
import { formatCallToolResult } from './format-call-tool-result.js';
import { MCPToolError } from './mcp-errors.js';

describe('formatCallToolResult', () => {
  it('joins text blocks into a plain string', () => {
    const result = formatCallToolResult('t', {
      content: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
    });
    expect(result).toBe('one\ntwo');
  });

  it('turns images into image parts with a data URL, next to the text', () => {
    const result = formatCallToolResult('t', {
      content: [
        { type: 'text', text: 'chart:' },
        { type: 'image', data: 'AAAA', mimeType: 'image/jpeg' },
      ],
    });
    expect(isToolContent(result)).toBe(true);
    expect(isToolContent(result) && result[TOOL_CONTENT_KEY]).toEqual([
      { type: 'text', text: 'chart:' },
      { type: 'image', image: { url: 'data:image/jpeg;base64,AAAA' } },
    ]);
  });

  it('uses embedded resource text, decodes text blobs, and labels binary blobs, links and audio instead of dumping bytes', () => {
    const result = formatCallToolResult('t', {
      content: [
        { type: 'resource', resource: { uri: 'file:///a.txt', text: 'file text' } },
        { type: 'resource', resource: { uri: 'file:///a.bin', blob: 'AAAA', mimeType: 'application/zip' } },
        {
          type: 'resource',
          resource: { uri: 'file:///c.json', blob: 'eyJvayI6dHJ1ZX0=', mimeType: 'application/json' },
        },
        { type: 'resource_link', uri: 'file:///b.md', name: 'b.md', mimeType: 'text/markdown' },
        { type: 'audio', data: 'A'.repeat(4000), mimeType: 'audio/wav' },
      ],
    });
    expect(result).toBe(
      [
        'file text',
        '[Resource blob: file:///a.bin (application/zip)]',
        '{"ok":true}',
        '[Resource link: file:///b.md (b.md, text/markdown)]',
        '[Audio: audio/wav, 3000 bytes not shown]',
      ].join('\n'),
    );
  });

  it('returns structuredContent as JSON when there is no content', () => {
    expect(formatCallToolResult('t', { content: [], structuredContent: { temperature: 21 } })).toBe(
      '{"temperature":21}',
    );
  });

  it('throws an MCPToolError with the text of an isError result', () => {
    const format = () =>
      formatCallToolResult('write', { content: [{ type: 'text', text: 'disk full' }], isError: true });
    expect(format).toThrow(MCPToolError);
    expect(format).toThrow('MCP tool "write" reported an error: disk full');
  });
});
