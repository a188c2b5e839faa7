import { describe, expect, it } from 'vitest';
import { csvObjects, parseCsv } from './csv.ts';

describe('parseCsv (RFC 4180)', () => {
  it('splits plain fields and records, LF or CRLF, and skips blank lines', () => {
    expect(parseCsv('a,b,c\r\n1,2,3\n\n4,,6\n')).toEqual([
      { line: 1, fields: ['a', 'b', 'c'] },
      { line: 2, fields: ['1', '2', '3'] },
      { line: 4, fields: ['4', '', '6'] },
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks, and numbers records by their first line', () => {
    const text = 'name,note\n"Vale, Orla","said ""no"" twice"\n"two\nlines",x\nlast,"",\n';
    expect(parseCsv(text)).toEqual([
      { line: 1, fields: ['name', 'note'] },
      { line: 2, fields: ['Vale, Orla', 'said "no" twice'] },
      { line: 3, fields: ['two\nlines', 'x'] },
      { line: 5, fields: ['last', '', ''] },
    ]);
  });

  it('keeps a quote inside an unquoted field, drops a byte-order mark, reads a last record without a newline', () => {
    expect(parseCsv('\uFEFFa,b\n5" pipe,z')).toEqual([
      { line: 1, fields: ['a', 'b'] },
      { line: 2, fields: ['5" pipe', 'z'] },
    ]);
  });

  it('refuses an unterminated quoted field, naming its line', () => {
    expect(() => parseCsv('a,b\n1,"open\n2,3\n')).toThrow(/line 2/);
  });

  it('csvObjects keys each record by the header and reports its width', () => {
    const { header, rows } = csvObjects('x, y\n1,2\n3\n');
    expect(header).toEqual(['x', 'y']);
    expect(rows).toEqual([
      { line: 2, width: 2, values: { x: '1', y: '2' } },
      { line: 3, width: 1, values: { x: '3', y: '' } },
    ]);
  });
});
