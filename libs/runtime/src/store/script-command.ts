import { Command } from 'ioredis';

/**
 * A Lua script call (EVALSHA, or EVAL on a `NOSCRIPT` miss) whose request is written straight into
 * one Buffer. ioredis' own `toWritable` asks each argument's UTF-8 length of Node (a call into C++
 * per argument) and concatenates five strings per argument, which the socket write must then
 * flatten and encode (issue 15: ioredis' script calls, which carry the run's events and journal
 * entries, were ~31 KB allocated per conversational run). Here each argument's length is its
 * `length`, right for ASCII text (most of what runs send: keys, ids, numbers, JSON of ASCII
 * text): an argument that is not ASCII writes more bytes than its length, and then ioredis' own
 * request is sent instead. The bytes on the wire are the same either way.
 */
export class ScriptCommand extends Command {
  override toWritable(socket: object): string | Buffer {
    const args = this.args;
    const count = args.length;
    const head = `*${count + 1}\r\n$${this.name.length}\r\n${this.name}\r\n`;
    let size = head.length;
    for (let index = 0; index < count; index++) {
      const arg = args[index];
      // Buffers (none today) and anything else ioredis knows how to write: its own request.
      if (typeof arg !== 'string') return super.toWritable(socket);
      size += arg.length + digits(arg.length) + 5;
    }
    // 3 bytes more than an ASCII request: a longer argument cut short at the end (UTF-8 is cut
    // at a character, at most 3 bytes short) still writes more bytes than its length.
    const request = Buffer.allocUnsafe(size + 3);
    let at = request.write(head, 0, 'latin1');
    for (let index = 0; index < count; index++) {
      const arg = args[index] as string;
      at = writeLength(request, at, arg.length);
      const written = request.write(arg, at);
      if (written !== arg.length) return super.toWritable(socket);
      at += written;
      request[at++] = 13;
      request[at++] = 10;
    }
    return request.subarray(0, size);
  }
}

/** Writes `$<length>\r\n` at `at` (no string made for it); returns where it ends. */
function writeLength(request: Buffer, at: number, length: number): number {
  request[at] = 36; // '$'
  let end = at + digits(length);
  for (let rest = length, index = end; index > at; rest = Math.floor(rest / 10))
    request[index--] = 48 + (rest % 10);
  request[++end] = 13;
  request[++end] = 10;
  return end + 1;
}

/** The decimal digits of a length. */
function digits(length: number): number {
  return length < 10 ? 1 : length < 100 ? 2 : length < 1000 ? 3 : String(length).length;
}
