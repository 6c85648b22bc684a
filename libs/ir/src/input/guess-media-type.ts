const BY_EXTENSION: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  html: 'text/html',
  json: 'application/json',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  mp4: 'video/mp4',
};

/**
 * Guesses a media type from the extension of a file name or URL path (`report.PDF` →
 * `application/pdf`), so targets that require one (Gemini `fileData.mimeType`) get a real type.
 * @returns `fallback` when the extension is missing or not in the small table above.
 */
export function guessMediaType(nameOrUrl: string | undefined, fallback: string): string {
  if (!nameOrUrl) return fallback;
  const path = nameOrUrl.replace(/[?#].*$/s, '');
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return (extension && BY_EXTENSION[extension]) || fallback;
}
