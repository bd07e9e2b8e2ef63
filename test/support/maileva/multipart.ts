/** One part of a multipart/form-data body (RFC 7578). */
export interface FormPart {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer;
}

/** The boundary of a multipart/form-data content type, or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || contentType.split(';')[0].trim().toLowerCase() !== 'multipart/form-data') return undefined;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/**
 * Splits a multipart/form-data body into its parts. Throws on a malformed body (no opening or
 * closing delimiter, a part without headers or without a form-data name).
 */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
  const delimiter = Buffer.from(`--${boundary}`);
  let at = body.indexOf(delimiter);
  if (at < 0) throw new Error('no opening boundary');
  const parts: FormPart[] = [];
  for (;;) {
    at += delimiter.length;
    if (body.subarray(at, at + 2).toString() === '--') return parts; // closing delimiter
    if (body.subarray(at, at + 2).toString() !== '\r\n') throw new Error('malformed boundary line');
    at += 2;
    const next = body.indexOf(Buffer.concat([Buffer.from('\r\n'), delimiter]), at);
    if (next < 0) throw new Error('no closing boundary');
    const part = body.subarray(at, next);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0) throw new Error('a part without headers');
    const headers = new Map<string, string>();
    for (const line of part.subarray(0, headerEnd).toString('utf8').split('\r\n')) {
      const colon = line.indexOf(':');
      if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
    }
    const disposition = headers.get('content-disposition') ?? '';
    const name = /(?:^|;)\s*name="([^"]*)"/i.exec(disposition)?.[1];
    if (!/^form-data\b/i.test(disposition) || name === undefined) throw new Error('a part without a form-data name');
    const filename = /(?:^|;)\s*filename="([^"]*)"/i.exec(disposition)?.[1];
    parts.push({ name, filename, contentType: headers.get('content-type'), data: Buffer.from(part.subarray(headerEnd + 4)) });
    at = next + 2;
  }
}
