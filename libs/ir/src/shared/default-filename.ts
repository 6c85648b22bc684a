const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'text/html': 'html',
  'application/json': 'json',
};

/**
 * The attachment's filename, or a neutral one derived from its media type (`file.pdf`).
 * OpenAI rejects inline file data without a filename, so targets always send one.
 */
export function filenameOrDefault(filename: string | undefined, mediaType: string): string {
  if (filename) return filename;
  const known = EXTENSIONS[mediaType.toLowerCase()];
  if (known) return `file.${known}`;
  const subtype = /^[\w.+-]+\/([\w.+-]+)$/.exec(mediaType)?.[1];
  return subtype ? `file.${subtype}` : 'file';
}
