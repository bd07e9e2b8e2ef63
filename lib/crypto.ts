import { createCipheriv, createDecipheriv, createHmac, hash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniform random base62 text (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

/** SHA-256 as lowercase hex, in one call (no Hash object, no intermediate Buffer). */
export function sha256Hex(data: string | Buffer): string {
  return hash('sha256', data, 'hex');
}

/** Constant-time equality of two strings: the same work whatever their first difference. */
export function safeEqualText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

export function hmacSha256Hex(key: string | Buffer, data: string | Buffer): string {
  return createHmac('sha256', key).update(data).digest('hex');
}

/** GCM's full tag and its standard nonce: Node would otherwise accept a tag cut to 4 bytes, or any nonce length. */
const TAG_BYTES = 16;
const IV_BYTES = 12;

/** AES-256-GCM; the output is self-describing ("v1.<iv>.<tag>.<ciphertext>", base64url parts). */
export function encrypt(plain: string, key: Buffer, context = ''): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  // Bound to its context: a value sealed for one purpose cannot be replayed for another.
  if (context) cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

export function decrypt(sealed: string, key: Buffer, context = ''): string {
  const [version, iv, tag, ciphertext, extra] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ciphertext === undefined || extra !== undefined) throw new Error('unreadable sealed value');
  const ivBytes = Buffer.from(iv, 'base64url');
  const tagBytes = Buffer.from(tag, 'base64url');
  if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) throw new Error('unreadable sealed value');
  const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES });
  if (context) decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(tagBytes);
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * A token that carries `payload` readably only by us: encrypted and authenticated, so clients can
 * neither decode nor forge it (used for pagination cursors).
 */
export function sealToken(payload: unknown, key: Buffer, context = ''): string {
  return encrypt(JSON.stringify(payload), key, context).slice(3);
}

export function openToken<T>(token: string, key: Buffer, context = ''): T | undefined {
  try {
    return JSON.parse(decrypt('v1.' + token, key, context)) as T;
  } catch {
    return undefined;
  }
}
