/**
 * RFC 4180 CSV, read by hand (no CSV library is installed): fields separated by
 * commas; a field in double quotes may hold commas, line breaks and doubled
 * quotes (""); records end with LF or CRLF. A quote inside an unquoted field is
 * kept as it is, as most readers do. A byte-order mark at the start is dropped.
 * Each record carries the line it starts on, for error messages.
 */
export type CsvRecord = { line: number; fields: string[] };

export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  const s = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let startLine = 1;
  let atFieldStart = true;
  const endRecord = () => {
    fields.push(field);
    // A blank line is no record.
    if (!(fields.length === 1 && fields[0] === '')) records.push({ line: startLine, fields });
    fields = [];
    field = '';
    atFieldStart = true;
  };
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (quoted) {
      if (c === '"') {
        if (s[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else {
        if (c === '\n') line++;
        field += c;
      }
      continue;
    }
    if (c === '"' && atFieldStart) {
      quoted = true;
      atFieldStart = false;
    } else if (c === ',') {
      fields.push(field);
      field = '';
      atFieldStart = true;
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && s[i + 1] === '\n') i++;
      endRecord();
      line++;
      startLine = line;
    } else {
      field += c;
      atFieldStart = false;
    }
  }
  if (quoted) throw new SyntaxError(`unterminated quoted field starting on line ${startLine}`);
  if (field !== '' || fields.length > 0) endRecord();
  return records;
}

/** CSV records as objects keyed by the header row's names. */
export function csvObjects(text: string): { header: string[]; rows: Array<{ line: number; values: Record<string, string>; width: number }> } {
  const [head, ...rest] = parseCsv(text);
  if (!head) return { header: [], rows: [] };
  const header = head.fields.map((h) => h.trim());
  return {
    header,
    rows: rest.map((r) => ({ line: r.line, width: r.fields.length, values: Object.fromEntries(header.map((h, i) => [h, r.fields[i] ?? ''])) })),
  };
}
