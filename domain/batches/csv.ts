import type { BatchRow } from './request.js';

/**
 * A batch's rows from a CSV file (the developer space's upload). The first line names the columns:
 * recipient columns (`name`, `line1` … `line5`, `postalCode`, `city`, or `siret` with an optional
 * `name`), `reference`, for the electronic channel `recipientEmail` and a consumer's consent
 * (`consentDate`, `consentMeans`), and any other column is a letter field of the row. Comma or semicolon
 * separated (the first line says which), fields in double quotes may hold either and line breaks.
 */
export const RECIPIENT_COLUMNS = ['name', 'line1', 'line2', 'line3', 'line4', 'line5', 'postalCode', 'city', 'siret'] as const;

/** Columns of a row that are not letter fields: its reference, and what the electronic channel asks. */
const ROW_COLUMNS = ['reference', 'recipientEmail', 'consentDate', 'consentMeans'];

/** The cells of a CSV text (RFC 4180 quoting), blank lines dropped. */
export function parseCsv(text: string): string[][] {
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const separator = firstLine.includes(';') && !firstLine.includes(',') ? ';' : ',';
  const lines: string[][] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === separator) {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      lines.push(cells);
      cells = [];
      cell = '';
    } else cell += c;
  }
  cells.push(cell);
  lines.push(cells);
  return lines.filter((line) => line.some((value) => value.trim() !== ''));
}

/** The rows of a CSV file; a problem of the file itself (no header, a missing column) is thrown as its French message. */
export function batchRowsFromCsv(text: string): BatchRow[] {
  const [header, ...lines] = parseCsv(text.replace(/^\uFEFF/, ''));
  if (!header || lines.length === 0) throw new Error('Le fichier doit avoir une ligne d’en-tête (les noms des colonnes) puis une ligne par destinataire.');
  const names = header.map((h) => h.trim());
  const bySiret = names.includes('siret');
  if (!bySiret && !['name', 'line1', 'postalCode', 'city'].every((column) => names.includes(column)))
    throw new Error('Colonnes du destinataire attendues : name, line1, postalCode et city (line2 à line5 facultatives), ou siret.');
  return lines.map((cells) => {
    const value = (column: string): string => (cells[names.indexOf(column)] ?? '').trim();
    const fields: Record<string, string> = {};
    names.forEach((column, i) => {
      if (column && !ROW_COLUMNS.includes(column) && !(RECIPIENT_COLUMNS as readonly string[]).includes(column)) fields[column] = (cells[i] ?? '').trim();
    });
    const recipient: BatchRow['recipient'] =
      bySiret && value('siret')
        ? { siret: value('siret'), ...(value('name') ? { name: value('name') } : {}) }
        : {
            name: value('name'),
            lines: ['line1', 'line2', 'line3', 'line4', 'line5'].map(value).filter((line) => line !== ''),
            postcode: value('postalCode'),
            city: value('city'),
            country: 'FR',
          };
    // Only what was given: the API's checks name what is missing (a consent's date without its means…).
    const consent = { ...(value('consentDate') ? { date: value('consentDate') } : {}), ...(value('consentMeans') ? { means: value('consentMeans') } : {}) };
    return {
      recipient,
      ...(Object.keys(fields).length ? { fields } : {}),
      ...(value('reference') ? { reference: value('reference') } : {}),
      ...(value('recipientEmail') ? { recipientEmail: value('recipientEmail') } : {}),
      ...(Object.keys(consent).length ? { consent: consent as BatchRow['consent'] } : {}),
    };
  });
}
