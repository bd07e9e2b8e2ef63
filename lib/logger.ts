import { pino } from 'pino';
import { logLevel } from './config.js';

/**
 * Standard output, written synchronously but rarely: access lines are gathered into blocks of
 * LOG_BLOCK_BYTES below, so one request line is not one write (that cost about a quarter of the
 * CPU of a cheap GET). The writes themselves are synchronous because an asynchronous one still in
 * flight when the process exits is lost with its whole block (seen under load: the first 28 lines
 * of 100 gone). Whatever is gathered is written when the process exits (process.exit, the end of
 * the event loop, an uncaught error); only a SIGKILL loses the last second's lines at most.
 */
const LOG_BLOCK_BYTES = 4096;
const LOG_FLUSH_MS = 1000;

/**
 * Access log lines wait here and reach the destination a block at a time. Sonic-boom measures the
 * byte length of its whole pending chunk on every write (a string of up to 16 KB made flat again):
 * handed one line per request, that came to about 4 µs of the API's 136 µs of CPU per 304 on this
 * machine (docs/performance.md).
 */
let pendingLines = '';
function writePendingLines(): void {
  if (pendingLines === '') return;
  const block = pendingLines;
  pendingLines = '';
  destination.write(block);
}
process.on('exit', writePendingLines);

const destination = pino.destination({ dest: 1, sync: true });

/** A quiet process still shows its lines within a second. */
setInterval(() => {
  writePendingLines();
}, LOG_FLUSH_MS).unref();

/**
 * Which process wrote a line: `api`, `worker`, `migrate`, `admin` or `local` (npm start), set once
 * at the start of each entry point (setLogRole). Every line of every process says the same
 * `service`; the role tells them apart in a shared log store.
 */
let role = 'local';
let roleFields: Record<string, string> = { role };

/** One structured logger; API keys, secrets and signatures are redacted wherever they appear. */
export const logger = pino(
  {
    level: logLevel(),
    base: { service: 'svc-postal-api' },
    // Not a binding: pino cannot replace one, only add a second key of the same name. A new object
    // each line: pino merges the line's own fields into what the mixin returns.
    mixin: () => ({ ...roleFields }),
    // The access lines already waiting go first: the log stays in the order things happened.
    hooks: {
      streamWrite: (line) => {
        writePendingLines();
        return line;
      },
    },
    redact: {
      paths: ['req.headers.authorization', '*.authorization', '*.secret', '*.key', '*.apiKey', '*.password'],
      censor: '[redacted]',
    },
  },
  destination,
);

/** Whether JSON.stringify would escape a character of `text` (any non-ASCII one is left to it as well). */
function needsEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x22 || code === 0x5c || code >= 0x7f) return true;
  }
  return false;
}

/** A JSON string: most paths and every method name have nothing to escape. */
const jsonString = (text: string): string => (needsEscape(text) ? JSON.stringify(text) : `"${text}"`);

/**
 * The access log: one line per request, in pino's format, of fields we choose (never a header, a
 * body or a key). Written as a prepared string: it skips pino's redaction and serializers, which
 * cost about a third of a cheap request's CPU.
 */
export const accessLog = {
  enabled: logger.isLevelEnabled('info'),
  write(fields: { requestId: string; method: string; path: string; status: number; ms: number; account: string | undefined }): void {
    const account = fields.account === undefined ? '' : `,"account":"${fields.account}"`;
    pendingLines +=
      `{"level":30,"time":${Date.now()},"service":"svc-postal-api","role":"${role}","requestId":"${fields.requestId}","method":${jsonString(fields.method)},` +
      `"path":${jsonString(fields.path)},"status":${fields.status},"ms":${fields.ms}${account},"msg":"request"}\n`;
    if (pendingLines.length >= LOG_BLOCK_BYTES) writePendingLines();
  },
};

/** Names the process in every line from now on (its entry point calls it first); `extra`: bindings of its own. */
export function setLogRole(name: 'api' | 'worker' | 'migrate' | 'admin' | 'local', extra: Record<string, string> = {}): void {
  writePendingLines();
  role = name;
  roleFields = { role: name, ...extra };
}
