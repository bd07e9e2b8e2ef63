import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../../lib/paths.js';

/**
 * scrypt from node:crypto, at OWASP's recommended cost (N = 2^17, r = 8, p = 1: 128 MiB, about a
 * quarter of a second here), in a self-describing string: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`.
 * Not argon2id: the `argon2` package's prebuilt binary crashes (SIGSEGV) on this machine kind, and
 * a native build would need compilers a fresh machine may lack; scrypt needs nothing installed.
 */
const COST = { ln: 17, r: 8, p: 1 };
const KEY_BYTES = 32;
const SALT_BYTES = 16;

function derive(password: string, salt: Buffer, cost: { ln: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** cost.ln, r: cost.r, p: cost.p, maxmem: 2 * 128 * cost.r * 2 ** cost.ln };
  return new Promise((resolve, reject) => scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key))));
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, COST);
  return `$scrypt$ln=${COST.ln},r=${COST.r},p=${COST.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

async function matches(hash: string, password: string): Promise<boolean> {
  const match = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(hash);
  if (!match) return false;
  const [, ln, r, p, salt, expected] = match;
  const wanted = Buffer.from(expected!, 'base64url');
  const key = await derive(password, Buffer.from(salt!, 'base64url'), { ln: Number(ln), r: Number(r), p: Number(p) });
  return key.length === wanted.length && timingSafeEqual(key, wanted);
}

let decoy: Promise<string> | undefined;

/**
 * True when `password` matches `hash`. Without a hash (no such user) a decoy hash is checked all
 * the same, so that an unknown email takes as long to refuse as a wrong password.
 */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  decoy ??= hashPassword('decoy password, never anybody’s');
  const ok = await matches(hash ?? (await decoy), password).catch(() => false);
  return hash !== undefined && ok;
}

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

let common: Set<string> | undefined;

/**
 * True when the password is on the list of common and breached passwords shipped with the project
 * (`common-passwords.txt`, its sources in its header), whatever its case: NIST SP 800-63B asks to
 * refuse them, and a length rule alone lets `motdepasse` or `azertyuiop` through.
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(
    readFileSync(join(projectRoot, 'domain', 'developers', 'common-passwords.txt'), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => line.normalize('NFC').toLowerCase()),
  );
  return common.has(password.normalize('NFC').toLowerCase());
}
