import { expect } from 'chai';
import { decodeCursor, encodeCursor, type Position } from '../../domain/pagination.js';
import { decrypt, encrypt, openToken, sealToken } from '../../lib/crypto.js';

const KEY = Buffer.alloc(32, 7);
const OTHER_KEY = Buffer.alloc(32, 8);
const POSITION: Position = { createdAt: '2026-03-01T09:15:42.123Z', id: '0b6f1c9e-3a4d-4f5e-9b2a-7c8d9e0f1a2b' };
const SCOPE = 'mailings:acct_1:live';

/** Replaces one character by another base64url character (both decode to different 6 bits). */
function changeCharAt(token: string, index: number): string {
  const replacement = token[index] === 'A' ? 'B' : 'A';
  return token.slice(0, index) + replacement + token.slice(index + 1);
}

/** The error decodeCursor throws, or undefined when it does not throw. */
function decodeError(cursor: string, key: Buffer, scope: string): (Error & { code?: string }) | undefined {
  try {
    decodeCursor(cursor, key, scope);
    return undefined;
  } catch (error) {
    return error as Error & { code?: string };
  }
}

function expectInvalidCursor(cursor: string, key: Buffer, scope: string): void {
  const error = decodeError(cursor, key, scope);
  expect(error, 'decodeCursor should throw').to.be.instanceOf(Error);
  // A 400 invalid_cursor for the client, whatever the error class carrying it.
  expect(error!.code).to.equal('invalid_cursor');
  expect(error!.message).to.match(/cursor/i);
}

describe('pagination cursors (domain/pagination)', () => {
  it('a cursor decodes to the position it was made from', () => {
    const cursor = encodeCursor(POSITION, KEY, SCOPE);
    expect(decodeCursor(cursor, KEY, SCOPE)).to.deep.equal(POSITION);
  });

  it('keeps millisecond precision and normalizes the time to UTC ISO', () => {
    const cursor = encodeCursor({ createdAt: '2026-03-01T10:15:42.999+01:00', id: POSITION.id }, KEY, SCOPE);
    expect(decodeCursor(cursor, KEY, SCOPE).createdAt).to.equal('2026-03-01T09:15:42.999Z');
  });

  it('is opaque: neither the id nor the time can be read from it, and each encoding differs', () => {
    const cursor = encodeCursor(POSITION, KEY, SCOPE);
    const decoded = Buffer.from(cursor.replace(/\./g, ''), 'base64url').toString('latin1');
    expect(cursor + decoded).not.to.include(POSITION.id.slice(0, 8));
    expect(cursor + decoded).not.to.include(String(Date.parse(POSITION.createdAt)));
    expect(encodeCursor(POSITION, KEY, SCOPE)).not.to.equal(cursor);
  });

  it('a cursor of another list (scope) is refused with invalid_cursor', () => {
    expectInvalidCursor(encodeCursor(POSITION, KEY, 'mailings:acct_2:live'), KEY, SCOPE);
    expectInvalidCursor(encodeCursor(POSITION, KEY, 'mailings:acct_1:test'), KEY, SCOPE);
  });

  it('a cursor made with another key is refused with invalid_cursor', () => {
    expectInvalidCursor(encodeCursor(POSITION, OTHER_KEY, SCOPE), KEY, SCOPE);
  });

  it('a tampered or made-up cursor is refused with invalid_cursor', () => {
    const cursor = encodeCursor(POSITION, KEY, SCOPE);
    expectInvalidCursor(changeCharAt(cursor, 0), KEY, SCOPE);
    expectInvalidCursor(changeCharAt(cursor, cursor.lastIndexOf('.') + 1), KEY, SCOPE);
    expectInvalidCursor('', KEY, SCOPE);
    expectInvalidCursor('not-a-cursor', KEY, SCOPE);
  });

  it('an authentic token whose content is not a position is refused too', () => {
    expectInvalidCursor(sealToken([Date.parse(POSITION.createdAt), 'not-a-uuid'], KEY, `cursor:${SCOPE}`), KEY, SCOPE);
    expectInvalidCursor(sealToken({ createdAt: POSITION.createdAt, id: POSITION.id }, KEY, `cursor:${SCOPE}`), KEY, SCOPE);
  });
});

describe('sealed values (lib/crypto)', () => {
  describe('encrypt / decrypt', () => {
    it('round-trips any text, accents and emoji included', () => {
      for (const plain of ['', 'secret', 'Résiliation – 1er mars 2026 ✉️', 'x'.repeat(10_000)]) {
        expect(decrypt(encrypt(plain, KEY, 'ctx'), KEY, 'ctx')).to.equal(plain);
      }
    });

    it('is self-describing (v1.<iv>.<tag>.<ciphertext>) and never the same twice', () => {
      const sealed = encrypt('secret', KEY);
      expect(sealed).to.match(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
      expect(encrypt('secret', KEY)).not.to.equal(sealed);
      expect(sealed).not.to.include('secret');
    });

    it('refuses another key, another context or a changed character', () => {
      const sealed = encrypt('secret', KEY, 'webhook-secret');
      expect(() => decrypt(sealed, OTHER_KEY, 'webhook-secret')).to.throw();
      expect(() => decrypt(sealed, KEY, 'partner-token')).to.throw();
      expect(() => decrypt(sealed, KEY)).to.throw();
      expect(() => decrypt(changeCharAt(sealed, 3), KEY, 'webhook-secret')).to.throw(); // first character of the iv
      expect(() => decrypt(changeCharAt(sealed, sealed.lastIndexOf('.') + 1), KEY, 'webhook-secret')).to.throw();
    });

    it('refuses an unknown version or a missing part', () => {
      const [, iv, tag, ciphertext] = encrypt('secret', KEY).split('.');
      expect(() => decrypt(['v2', iv, tag, ciphertext].join('.'), KEY)).to.throw('unreadable sealed value');
      expect(() => decrypt(['v1', iv, tag].join('.'), KEY)).to.throw('unreadable sealed value');
    });
  });

  describe('sealToken / openToken', () => {
    it('round-trips a JSON payload', () => {
      const payload = { position: [1772356542123, POSITION.id], note: 'été' };
      expect(openToken(sealToken(payload, KEY, 'A'), KEY, 'A')).to.deep.equal(payload);
    });

    it('a token sealed with context A does not open with context B (nor without a context)', () => {
      const token = sealToken([1, 2, 3], KEY, 'A');
      expect(openToken(token, KEY, 'B')).to.equal(undefined);
      expect(openToken(token, KEY)).to.equal(undefined);
    });

    it('a token sealed with another key does not open', () => {
      expect(openToken(sealToken([1, 2, 3], OTHER_KEY, 'A'), KEY, 'A')).to.equal(undefined);
    });

    it('a token with any one character of its iv, tag or ciphertext changed does not open', () => {
      const token = sealToken({ id: POSITION.id }, KEY, 'A');
      const [iv, tag] = token.split('.') as [string, string, string];
      // The first character of each part, and every character of the iv (16 characters, no padding bits).
      const indexes = [...Array.from({ length: iv.length }, (_, i) => i), iv.length + 1, iv.length + 1 + tag.length + 1];
      for (const index of indexes) expect(openToken(changeCharAt(token, index), KEY, 'A'), `character ${index}`).to.equal(undefined);
    });

    it('garbage opens to undefined rather than throwing', () => {
      expect(openToken('', KEY)).to.equal(undefined);
      expect(openToken('a.b.c', KEY)).to.equal(undefined);
    });

    it('a token whose authentication tag is truncated does not open (16-byte tags only)', () => {
      const [iv, tag, ciphertext] = sealToken([1, 2, 3], KEY, 'A').split('.') as [string, string, string];
      for (const length of [6, 11, 16, 21])
        expect(openToken([iv, tag.slice(0, length), ciphertext].join('.'), KEY, 'A'), `tag of ${length} chars`).to.equal(undefined);
      expect(openToken([iv, tag, ciphertext].join('.'), KEY, 'A')).to.deep.equal([1, 2, 3]);
    });

    it('a token with another nonce length, or an extra part, does not open', () => {
      const [iv, tag, ciphertext] = sealToken([1, 2, 3], KEY, 'A').split('.') as [string, string, string];
      expect(openToken([iv + 'AAAA', tag, ciphertext].join('.'), KEY, 'A')).to.equal(undefined);
      expect(openToken([iv.slice(0, 8), tag, ciphertext].join('.'), KEY, 'A')).to.equal(undefined);
      expect(openToken([iv, tag, ciphertext, 'x'].join('.'), KEY, 'A')).to.equal(undefined);
    });
  });
});
