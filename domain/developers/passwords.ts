import argon2 from 'argon2';

/**
 * argon2id (the `argon2` package: the reference implementation, prebuilt for this platform) with
 * its defaults, which meet OWASP's recommendation: 64 MiB of memory, 3 passes, 4 lanes.
 */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

let decoy: Promise<string> | undefined;

/**
 * True when `password` matches `hash`. Without a hash (no such user) a decoy hash is checked all
 * the same, so that an unknown email takes as long to refuse as a wrong password.
 */
export async function verifyPassword(hash: string | undefined, password: string): Promise<boolean> {
  decoy ??= hashPassword('decoy password, never anybody’s');
  const matches = await argon2.verify(hash ?? (await decoy), password).catch(() => false);
  return hash !== undefined && matches;
}

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;
