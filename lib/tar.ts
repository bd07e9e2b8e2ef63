/**
 * A small ustar writer (POSIX.1-1988), enough for an archive of regular files whose size is known
 * when each is written: a 512-byte header, the bytes, zeros to the next 512 bytes; two empty blocks
 * end the archive. Names up to 255 bytes (the ustar prefix field holds the directories). Read by GNU
 * tar, bsdtar and every tar library.
 */

const BLOCK = 512;

function octal(value: number, length: number): string {
  return value.toString(8).padStart(length - 1, '0') + '\0';
}

/** Splits a path into ustar's `prefix` (≤ 155 bytes) and `name` (≤ 100 bytes) at a slash. */
function splitName(path: string): { prefix: string; name: string } {
  if (Buffer.byteLength(path) <= 100) return { prefix: '', name: path };
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (Buffer.byteLength(prefix) <= 155 && Buffer.byteLength(name) <= 100) return { prefix, name };
  }
  throw new Error(`tar: path too long: ${path}`);
}

/** The header block of a regular file of `size` bytes. */
export function tarHeader(path: string, size: number, mtime: Date = new Date()): Buffer {
  const header = Buffer.alloc(BLOCK, 0);
  const { prefix, name } = splitName(path);
  header.write(name, 0, 100, 'utf8');
  header.write(octal(0o644, 8), 100, 8, 'ascii');
  header.write(octal(0, 8), 108, 8, 'ascii');
  header.write(octal(0, 8), 116, 8, 'ascii');
  header.write(octal(size, 12), 124, 12, 'ascii');
  header.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 12, 'ascii');
  header.write('        ', 148, 8, 'ascii'); // the checksum field counts as spaces
  header.write('0', 156, 1, 'ascii');
  header.write('ustar\0', 257, 6, 'ascii');
  header.write('00', 263, 2, 'ascii');
  header.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(octal(sum, 7) + ' ', 148, 8, 'ascii');
  return header;
}

/** One file of the archive: its header, its bytes and the padding to the next block. */
export function* tarEntry(path: string, bytes: Uint8Array, mtime?: Date): Generator<Buffer> {
  yield tarHeader(path, bytes.length, mtime);
  yield Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  const padding = (BLOCK - (bytes.length % BLOCK)) % BLOCK;
  if (padding) yield Buffer.alloc(padding, 0);
}

/** The two empty blocks that end an archive. */
export const tarEnd = (): Buffer => Buffer.alloc(2 * BLOCK, 0);

/** A parsed entry (tests and tools read archives back with it). */
export interface TarFile {
  path: string;
  bytes: Buffer;
}

/** Reads back the regular files of an (uncompressed) ustar archive. */
export function readTar(archive: Buffer): TarFile[] {
  const files: TarFile[] = [];
  for (let offset = 0; offset + BLOCK <= archive.length;) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const field = (start: number, length: number) =>
      header
        .subarray(start, start + length)
        .toString('utf8')
        .replace(/\0.*$/s, '');
    const size = parseInt(field(124, 12).trim(), 8);
    const prefix = field(345, 155);
    const name = field(0, 100);
    const start = offset + BLOCK;
    files.push({ path: prefix ? `${prefix}/${name}` : name, bytes: archive.subarray(start, start + size) });
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
