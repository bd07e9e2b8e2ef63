import { crc32 } from 'node:zlib';

/**
 * The files the Maileva stand-in serves and reads, built by hand: a one-page PDF (deposit proofs,
 * scanned acknowledgements of receipt, archived letters), a zip holding one file, and a cheap
 * page count of an uploaded PDF.
 */

/** PDF string literal: ASCII only (others become '?'), with ( ) \ escaped. */
function pdfText(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);
}

/**
 * A minimal valid PDF 1.4: one A4 page writing `lines` in Helvetica (a standard font, not
 * embedded), with a correct cross-reference table so strict readers open it.
 */
export function onePagePdf(lines: string[]): Buffer {
  const stream = ['BT', '/F1 14 Tf', '16 TL', '72 770 Td', ...lines.map((line, i) => `${i ? 'T* ' : ''}(${pdfText(line)}) Tj`), 'ET'].join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
  ];
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(pdf, 'latin1'));
    pdf += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf, 'latin1');
  // Each cross-reference entry is exactly 20 bytes: 10-digit offset, space, 5-digit generation, space, n/f, space, LF.
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  pdf += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(pdf, 'latin1');
}

/** What an uploaded file is, as far as the stand-in cares. */
export type PdfCheck = 'ok' | 'empty' | 'not-pdf' | 'corrupted';

/** A PDF starts with `%PDF-` and ends (give or take trailing bytes) with `%%EOF`. */
export function checkPdf(bytes: Buffer): PdfCheck {
  if (bytes.length === 0) return 'empty';
  if (!bytes.subarray(0, 5).equals(Buffer.from('%PDF-'))) return 'not-pdf';
  if (!bytes.subarray(Math.max(0, bytes.length - 1024)).includes('%%EOF')) return 'corrupted';
  return 'ok';
}

/**
 * Page count, cheaply: the page objects (`/Type /Page`, not `/Pages`) written in clear. A PDF whose
 * objects sit in compressed object streams shows none: 1 then.
 */
export function pdfPageCount(bytes: Buffer): number {
  const pages = bytes.toString('latin1').match(/\/Type\s*\/Page(?![A-Za-z])/g);
  return Math.max(1, pages?.length ?? 0);
}

/** A zip archive holding one file, stored (no compression): local header, data, central directory, end record. */
export function zipOf(name: string, data: Buffer, date = new Date()): Buffer {
  const fileName = Buffer.from(name, 'utf8');
  const crc = crc32(data) >>> 0;
  const time = (date.getHours() << 11) | (date.getMinutes() << 5) | Math.floor(date.getSeconds() / 2);
  const day = ((date.getFullYear() - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate();
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4); // version needed: 2.0
  local.writeUInt16LE(0x0800, 6); // flags: UTF-8 name
  local.writeUInt16LE(0, 8); // method: stored
  local.writeUInt16LE(time, 10);
  local.writeUInt16LE(day, 12);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(data.length, 22);
  local.writeUInt16LE(fileName.length, 26);
  local.writeUInt16LE(0, 28);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4); // made by
  central.writeUInt16LE(20, 6); // needed
  central.writeUInt16LE(0x0800, 8);
  central.writeUInt16LE(0, 10);
  central.writeUInt16LE(time, 12);
  central.writeUInt16LE(day, 14);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(data.length, 24);
  central.writeUInt16LE(fileName.length, 28);
  // extra, comment, disk, internal attributes: 0; external attributes: 0; local header offset: 0.
  const centralOffset = local.length + fileName.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8); // entries on this disk
  end.writeUInt16LE(1, 10); // entries
  end.writeUInt32LE(central.length + fileName.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, fileName, data, central, fileName, end]);
}

/** The files of a zip, read from its local headers (stored entries only: enough for the stand-in's own zips). */
export function unzipStored(zip: Buffer): { name: string; data: Buffer; crcOk: boolean }[] {
  const files: { name: string; data: Buffer; crcOk: boolean }[] = [];
  let at = 0;
  while (at + 30 <= zip.length && zip.readUInt32LE(at) === 0x04034b50) {
    if (zip.readUInt16LE(at + 8) !== 0) throw new Error('compressed zip entry');
    const size = zip.readUInt32LE(at + 18);
    const nameLength = zip.readUInt16LE(at + 26);
    const extraLength = zip.readUInt16LE(at + 28);
    const name = zip.subarray(at + 30, at + 30 + nameLength).toString('utf8');
    const data = zip.subarray(at + 30 + nameLength + extraLength, at + 30 + nameLength + extraLength + size);
    files.push({ name, data, crcOk: crc32(data) >>> 0 === zip.readUInt32LE(at + 14) });
    at += 30 + nameLength + extraLength + size;
  }
  return files;
}
