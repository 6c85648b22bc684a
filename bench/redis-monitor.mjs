/**
 * A MONITOR reader: the commands Redis runs, with their exact arguments and source. Shared by the
 * bench's storage floor (`storage-floor.mjs`) and the test suites (`test/support/monitored-commands.ts`).
 */
import { connect } from 'node:net';

const fromUrl = (url) => {
  const { hostname, port, username, password } = new URL(url);
  return {
    host: hostname.replace(/^\[|\]$/g, ''),
    port: Number(port || 6379),
    username: username ? decodeURIComponent(username) : undefined,
    password: password ? decodeURIComponent(password) : undefined,
  };
};

/** A command as a RESP request (so a password may hold spaces or quotes). */
const request = (...args) =>
  `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;

/**
 * Sends `MONITOR` on a socket of its own and calls `onCommand(args, source)` for each command
 * Redis reports (`source`: `lua` inside a script, else the client's address). Not ioredis'
 * `monitor()`: on a busy Redis its first lines can arrive before it counts itself in monitor mode,
 * which it reports as an unhandled "Command queue state error", and it splits arguments on
 * `" "` and leaves MONITOR's escapes in them. Resolves once Redis has answered `+OK`.
 * @param {string | { host?: string, port?: number, username?: string, password?: string }} target
 *   a `redis://[[user]:password@]host:port` URL, or an ioredis connection's `options`
 * @param {(args: string[], source: string) => void} onCommand
 * @returns {Promise<{ close: () => void }>}
 */
export function openMonitor(target, onCommand, timeoutMs = 10_000) {
  const { host, port, username, password } = typeof target === 'string' ? fromUrl(target) : target;
  const socket = connect({ host: host ?? '127.0.0.1', port: port ?? 6379 });
  socket.setEncoding('latin1');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`MONITOR: no answer within ${timeoutMs} ms`)), timeoutMs);
    const fail = (error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    let buffered = '';
    let answered = false;
    // +OK to AUTH (when the URL has a password), then +OK to MONITOR.
    const okNeeded = password ? 2 : 1;
    let okCount = 0;
    socket.on('error', fail);
    socket.on('data', (chunk) => {
      buffered += chunk;
      let end = buffered.indexOf('\r\n');
      while (end !== -1) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        end = buffered.indexOf('\r\n');
        if (line.startsWith('-')) return fail(new Error(`MONITOR: Redis answered ${line.slice(1)}`));
        if (!answered) {
          if (line === '+OK' && ++okCount === okNeeded) {
            answered = true;
            clearTimeout(timer);
            resolve({ close: () => socket.destroy() });
          }
          continue;
        }
        const command = parseMonitorLine(line);
        if (command) onCommand(command.args, command.source);
      }
    });
    if (password) socket.write(request(...['AUTH', username, password].filter(Boolean)));
    socket.write(request('MONITOR'));
  });
}

/**
 * One MONITOR line, `+<time> [<db> <source>] "<arg>" "<arg>"…`, as its arguments (Redis' quoted
 * form undone: `\\`, `\"`, `\n`, `\r`, `\t`, `\a`, `\b`, `\xHH`, bytes read as UTF-8) and source.
 */
export function parseMonitorLine(line) {
  const open = line.indexOf('[');
  const close = line.indexOf('] ', open);
  if (!line.startsWith('+') || open === -1 || close === -1) return undefined;
  const source = line.slice(open + 1, close).split(' ')[1] ?? '';
  const escapes = { n: 10, r: 13, t: 9, a: 7, b: 8, '\\': 92, '"': 34 };
  const args = [];
  let i = close + 2;
  while (i < line.length) {
    if (line[i] === ' ') {
      i++;
      continue;
    }
    if (line[i] !== '"') return undefined;
    const bytes = [];
    for (i++; i < line.length && line[i] !== '"'; i++) {
      if (line[i] === '\\' && line[i + 1] === 'x') {
        bytes.push(Number.parseInt(line.slice(i + 2, i + 4), 16));
        i += 3;
      } else if (line[i] === '\\') {
        bytes.push(escapes[line[i + 1]] ?? line.charCodeAt(i + 1));
        i += 1;
      } else bytes.push(line.charCodeAt(i));
    }
    args.push(Buffer.from(bytes).toString('utf8'));
    i++;
  }
  return { args, source };
}
