import { crc32, deflateRawSync } from 'node:zlib';

/** Building XLSX files by hand, part by part, as a spreadsheet program (or an attacker) writes them. */

/** A zip archive of the given parts (deflated), with a central directory that tells the truth. */
export function zip(entries: { name: string; data: Buffer }[], level = 6): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const packed = deflateRawSync(e.data, { level });
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc32(e.data), 14);
    local.writeUInt32LE(packed.length, 18);
    local.writeUInt32LE(e.data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc32(e.data), 16);
    central.writeUInt32LE(packed.length, 20);
    central.writeUInt32LE(e.data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, packed);
    centrals.push(central, name);
    offset += local.length + name.length + packed.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const NS = 'http://schemas.openxmlformats.org';
const xml = (s: string) => `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n${s}`;
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The column letters of a 1-based column number: 1 → A, 27 → AA. */
export function columnName(n: number): string {
  let out = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) out = String.fromCharCode(65 + ((c - 1) % 26)) + out;
  return out;
}

/**
 * An XLSX file whose first sheet holds `rows` (text through the shared strings, as Excel writes
 * it; numbers as numbers). Parts come in Excel's order: the sheet before the shared strings.
 * `sheetXml` replaces the sheet part; `extraSheets` adds further sheets after the first.
 */
export function xlsxFile(rows: (string | number)[][], opts: { sheetXml?: Buffer; extraSheets?: (string | number)[][][] } = {}): Buffer {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const sheet = (data: (string | number)[][]) => {
    const out: string[] = [`<worksheet xmlns="${NS}/spreadsheetml/2006/main"><sheetData>`];
    data.forEach((row, r) => {
      out.push(`<row r="${r + 1}">`);
      row.forEach((value, c) => {
        const ref = `${columnName(c + 1)}${r + 1}`;
        if (typeof value === 'number') out.push(`<c r="${ref}"><v>${value}</v></c>`);
        else {
          let i = index.get(value);
          if (i === undefined) {
            i = strings.push(value) - 1;
            index.set(value, i);
          }
          out.push(`<c r="${ref}" t="s"><v>${i}</v></c>`);
        }
      });
      out.push('</row>');
    });
    out.push('</sheetData></worksheet>');
    return Buffer.from(xml(out.join('')));
  };
  const sheets = [opts.sheetXml ?? sheet(rows), ...(opts.extraSheets ?? []).map(sheet)];
  const sheetList = sheets.map((_s, i) => `<sheet name="Аркуш${i + 1}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  const rels = sheets
    .map((_s, i) => `<Relationship Id="rId${i + 1}" Type="${NS}/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`)
    .join('');
  return zip([
    {
      name: '[Content_Types].xml',
      data: Buffer.from(
        xml(
          `<Types xmlns="${NS}/package/2006/content-types">` +
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
            '<Default Extension="xml" ContentType="application/xml"/></Types>',
        ),
      ),
    },
    {
      name: '_rels/.rels',
      data: Buffer.from(
        xml(
          `<Relationships xmlns="${NS}/package/2006/relationships">` +
            `<Relationship Id="rId1" Type="${NS}/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>` +
            '</Relationships>',
        ),
      ),
    },
    {
      name: 'xl/workbook.xml',
      data: Buffer.from(
        xml(`<workbook xmlns="${NS}/spreadsheetml/2006/main" xmlns:r="${NS}/officeDocument/2006/relationships"><sheets>${sheetList}</sheets></workbook>`),
      ),
    },
    { name: 'xl/_rels/workbook.xml.rels', data: Buffer.from(xml(`<Relationships xmlns="${NS}/package/2006/relationships">${rels}</Relationships>`)) },
    ...sheets.map((data, i) => ({ name: `xl/worksheets/sheet${i + 1}.xml`, data })),
    {
      name: 'xl/sharedStrings.xml',
      data: Buffer.from(
        xml(
          `<sst xmlns="${NS}/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">` +
            `${strings.map((s) => `<si><t>${escape(s)}</t></si>`).join('')}</sst>`,
        ),
      ),
    },
  ]);
}
