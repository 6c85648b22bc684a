/** Whether `url` is an `http(s)://` URL, the only kind most provider APIs fetch media from (not `gs://`). */
export function isHttpUrl(url: string): boolean {
  return /^https?:\/\//i.test(url);
}
