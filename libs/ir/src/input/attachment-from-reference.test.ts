import { describe, expect, it } from 'vitest';
import { IRValidationError } from '../errors.js';
import {
  attachmentFromFileData,
  attachmentFromFileId,
  attachmentFromUrl,
} from './attachment-from-reference.js';

describe('attachmentFromUrl', () => {
  it('splits a base64 data URL into its media type and raw base64, ignoring extra parameters', () => {
    expect(
      attachmentFromUrl('data:image/webp;name=a.webp;base64,UklGR', 'p', { mediaType: 'image/*' }),
    ).toEqual({
      mediaType: 'image/webp',
      data: 'UklGR',
      source: 'base64',
    });
  });

  it('keeps http(s) and gs:// URLs, typed from the extension (ignoring the query) or else the hint', () => {
    const hints = { mediaType: 'application/octet-stream', filename: 'kept.bin' };
    expect(attachmentFromUrl('https://cdn.example.com/a/report.pdf?sig=1', 'p', hints)).toEqual({
      mediaType: 'application/pdf',
      data: 'https://cdn.example.com/a/report.pdf?sig=1',
      source: 'url',
      filename: 'kept.bin',
    });
    expect(attachmentFromUrl('gs://bucket/clip', 'p', { mediaType: 'video/*' })).toEqual({
      mediaType: 'video/*',
      data: 'gs://bucket/clip',
      source: 'url',
    });
  });

  it('rejects relative paths and data URLs that are not base64, naming the path', () => {
    expect(() => attachmentFromUrl('data:text/plain,hello', 'items[0].url', { mediaType: 'x' })).toThrow(
      IRValidationError,
    );
    expect(() => attachmentFromUrl('cat.png', 'items[0].url', { mediaType: 'x' })).toThrow(
      /^items\[0\]\.url: expected an http\(s\):\/\/ or gs:\/\/ URL or a base64 data: URL/,
    );
  });
});

describe('attachmentFromFileData and attachmentFromFileId', () => {
  it('treats file data without a data: prefix as raw base64 typed from the file name', () => {
    expect(
      attachmentFromFileData('JVBERi0x', { mediaType: 'application/octet-stream', filename: 'a.pdf' }),
    ).toEqual({
      mediaType: 'application/pdf',
      data: 'JVBERi0x',
      source: 'base64',
      filename: 'a.pdf',
    });
    expect(attachmentFromFileData('AAAA', { mediaType: 'application/octet-stream' })).toEqual({
      mediaType: 'application/octet-stream',
      data: 'AAAA',
      source: 'base64',
    });
  });

  it('never guesses an image type for a file id without a known file name', () => {
    expect(
      attachmentFromFileId('file-1', { mediaType: 'application/octet-stream', filename: 'notes' }),
    ).toEqual({
      mediaType: 'application/octet-stream',
      data: 'file-1',
      source: 'file-id',
      filename: 'notes',
    });
  });
});
