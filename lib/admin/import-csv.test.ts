// Unit tests for the import dialog's CSV rules: file checks, delimiter, header end, row counting,
// the preview read with csv-parse (the function's parser), and the column mapping and its header.
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import {
  checkImportFile,
  countRows,
  defaultMapping,
  describeColumns,
  detectDelimiter,
  headerEnd,
  MAX_IMPORT_BYTES,
  previewCsv,
  rewrittenHeader,
  RowCounter,
  type ParseSync,
} from './import-csv';

const bytes = (text: string) => new TextEncoder().encode(text);
const preview = (text: string, complete = true) =>
  previewCsv(bytes(text), complete, parse as unknown as ParseSync);

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(bytes(chunk));
      controller.close();
    },
  });
}

describe('checkImportFile', () => {
  it('accepts a .csv file up to 50 MB', () => {
    expect(checkImportFile({ name: 'people.CSV', size: MAX_IMPORT_BYTES })).toBeNull();
  });

  it('refuses other names, empty files and files over 50 MB', () => {
    expect(checkImportFile({ name: 'people.xlsx', size: 10 })).toMatch(/\.csv/);
    expect(checkImportFile({ name: 'a.csv', size: 0 })).toMatch(/empty/);
    expect(checkImportFile({ name: 'a.csv', size: MAX_IMPORT_BYTES + 1 })).toMatch(
      /50\.0 MB; an import may be at most 50 MB/,
    );
  });
});

describe('detectDelimiter', () => {
  it('picks the most frequent of comma, semicolon and tab outside quotes', () => {
    expect(detectDelimiter('email,name,city')).toBe(',');
    expect(detectDelimiter('email;name;"a,b,c"')).toBe(';');
    expect(detectDelimiter('email\tname\tcity')).toBe('\t');
    expect(detectDelimiter('email')).toBe(',');
    // Ties go to the comma, as in the function.
    expect(detectDelimiter('a,b;c')).toBe(',');
  });
});

describe('RowCounter and countRows', () => {
  it('counts data rows: quoted newlines, CRLF, blank lines, a BOM and no final newline', async () => {
    const text = '\ufeffemail,name\r\na@x.io,"two\nlines"\r\n\r\nb@x.io,"say ""hi"""\nc@x.io,x';
    expect(await countRows(streamOf(text))).toBe(3);
    // Split at awkward places: inside a quote and between CR and LF.
    expect(await countRows(streamOf(text.slice(0, 20), text.slice(20, 33), text.slice(33)))).toBe(
      3,
    );
  });

  it('treats a quote inside an unquoted field as text, as the function does', () => {
    const counter = new RowCounter();
    counter.push(bytes('email,note\na@x.io,5" screen\nb@x.io,ok\n'));
    expect(counter.rows()).toBe(2);
  });

  it('stops once the count passes the maximum', async () => {
    expect(await countRows(streamOf('email\n', 'a@x.io\n'.repeat(10)), 5)).toBe(6);
    expect(await countRows(streamOf('email\n'), 5)).toBe(0);
  });

  it('finds where the header ends and how many lines it takes', () => {
    expect(headerEnd(bytes('email,name\na,b\n'))).toEqual({ end: 11, lines: 1 });
    expect(headerEnd(bytes('\ufeffemail\r\nx'))).toEqual({ end: 10, lines: 1 });
    expect(headerEnd(bytes('\n\nemail,"na\nme"\nx'))).toEqual({ end: 16, lines: 4 });
    expect(headerEnd(bytes('email,name'))).toBeNull();
  });
});

describe('previewCsv', () => {
  it('reads the header, the delimiter and the first rows like the function', () => {
    const p = preview(
      '\ufeff Email ;Name;City\r\na@x.io;Ada;"Paris; France"\r\nb@x.io;Bo;Rome\r\n',
    );
    expect(p.delimiter).toBe(';');
    expect(p.columns).toEqual(['Email', 'Name', 'City']);
    expect(p.rows).toEqual([
      ['a@x.io', 'Ada', 'Paris; France'],
      ['b@x.io', 'Bo', 'Rome'],
    ]);
    expect(p.dataStart).toBe(bytes('\ufeff Email ;Name;City\r\n').length);
    expect(p.headerLines).toBe(1);
  });

  it('shows at most five rows and ignores a head cut inside a quoted field', () => {
    const rows = Array.from({ length: 8 }, (_, i) => `p${i}@x.io,"note ${i}"`).join('\n');
    const p = preview(`email,note\n${rows}\nlast@x.io,"cut here`, false);
    expect(p.rows).toHaveLength(5);
    expect(p.rows[4]).toEqual(['p4@x.io', 'note 4']);
  });

  it('refuses an empty file, a header longer than the head and text that is not UTF-8', () => {
    expect(() => preview('\n\n')).toThrow(/empty/);
    expect(() => preview('email,name', false)).toThrow(/64 KB/);
    expect(() =>
      previewCsv(new Uint8Array([0x65, 0x0a, 0xff, 0xfe]), true, parse as unknown as ParseSync),
    ).toThrow(/not UTF-8/);
  });
});

describe('column mapping', () => {
  const columns = ['E-mail', 'Full name', 'email', 'city', ''];

  it('defaults to the columns named email and name, any case', () => {
    expect(defaultMapping(['NAME', 'Email', 'x'])).toEqual({ email: 1, name: 0 });
    expect(defaultMapping(['mail', 'who'])).toEqual({ email: null, name: null });
  });

  it('describes what each column becomes', () => {
    expect(describeColumns(['email', 'name', 'city', ''], { email: 0, name: 1 })).toEqual([
      { index: 0, column: 'email', role: 'email', key: 'email' },
      { index: 1, column: 'name', role: 'name', key: 'name' },
      { index: 2, column: 'city', role: 'attribute', key: 'city' },
      { index: 3, column: '', role: 'attribute', key: 'column_4' },
    ]);
  });

  it('names the attribute a displaced email column is kept under, as the upload will', () => {
    const described = describeColumns(['addr', 'email', 'email (column 2)'], {
      email: 0,
      name: null,
    });
    expect(described.map((c) => c.key)).toEqual([
      'email',
      'email (column 2) 2',
      'email (column 2)',
    ]);
    expect(
      rewrittenHeader(['addr', 'email', 'email (column 2)'], { email: 0, name: null }, ','),
    ).toBe('email,email (column 2) 2,email (column 2)\r\n');
  });

  it('keeps the file as it is when the header already says what was chosen', () => {
    expect(rewrittenHeader(['Email', 'Name', 'city'], { email: 0, name: 1 }, ',')).toBeNull();
  });

  it('renames the chosen columns and moves a displaced email column to an attribute', () => {
    const header = rewrittenHeader(columns, { email: 0, name: 1 }, ',')!;
    expect(header).toBe('email,name,email (column 3),city,column_5\r\n');
    // Read back the way the function reads it: email and name by name, the rest attributes.
    const [read] = parse(header) as string[][];
    expect(defaultMapping(read!)).toEqual({ email: 0, name: 1 });
  });

  it('quotes a header field that holds the delimiter or a quote', () => {
    const semicolons = rewrittenHeader(['addr', 'a;b', 'say "x"'], { email: 0, name: null }, ';')!;
    expect(semicolons).toBe('email;"a;b";"say ""x"""\r\n');
    const tabs = rewrittenHeader(['addr', 'a\tb', 'c'], { email: 0, name: null }, '\t')!;
    expect(tabs).toBe('email\t"a\tb"\tc\r\n');
    // The function detects the same delimiter on the new header and reads the same names.
    expect(detectDelimiter(semicolons)).toBe(';');
    expect(detectDelimiter(tabs)).toBe('\t');
    expect(parse(semicolons, { delimiter: ';' })).toEqual([['email', 'a;b', 'say "x"']]);
  });
});
