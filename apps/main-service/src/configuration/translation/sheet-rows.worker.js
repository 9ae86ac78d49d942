// @ts-check
// The worker thread that reads a workbook's first worksheet (see sheet-rows.ts). Plain JavaScript: Node loads it as
// it is, from the sources under test and from dist/ in a build (tsc copies it), with no TypeScript loader in the
// thread. exceljs loads here, so its load (a few hundred milliseconds) and the XML parsing never hold the
// service's event loop.
'use strict';
const { Readable } = require('node:stream');
const { stream } = require('exceljs');

/**
 * The archive in slices: exceljs parses a slice's XML whole before it hands over its rows, and stops reading at the
 * row past the bound. A slice never ends inside a UTF-8 character: exceljs decodes each chunk of a sheet's XML to text
 * on its own, so a character split between two chunks came out as two replacement characters (the parts are stored,
 * not deflated, so the sheet's chunks end where the slices do).
 */
function* slices(/** @type {Uint8Array} */ archive, sliceBytes = 64 * 1024) {
  for (let offset = 0; offset < archive.byteLength;) {
    let end = Math.min(offset + sliceBytes, archive.byteLength);
    while (end < archive.byteLength && end > offset + 1 && (archive[end] & 0xc0) === 0x80) end--; // a continuation byte
    yield Buffer.from(archive.buffer, archive.byteOffset + offset, end - offset);
    offset = end;
  }
}

/**
 * The rows of the first worksheet of `archive` (a zip whose parts come in the order exceljs can stream: relations,
 * workbook, shared strings, sheets), as sheet row numbers and, per row, the texts of the first `columns` cells,
 * flattened into one array (cheap to hand back to the service's thread). More than `maxRows` rows: 'too-many-rows',
 * without reading further. A part exceljs cannot parse: 'unreadable'.
 *
 * @param {{ archive: Uint8Array; columns: number; maxRows: number }} task
 * @returns {Promise<{ outcome: 'read'; numbers: number[]; cells: string[] } | { outcome: 'too-many-rows' | 'unreadable' | 'no-sheet' }>}
 */
module.exports = async function readSheetRows({ archive, columns, maxRows }) {
  const reader = new stream.xlsx.WorkbookReader(Readable.from(slices(archive)), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    hyperlinks: 'ignore',
    styles: 'ignore',
    entries: 'ignore',
  });
  /** @type {number[]} */
  const numbers = [];
  /** @type {string[]} */
  const cells = [];
  try {
    for await (const sheet of /** @type {AsyncIterable<any>} */ (reader)) {
      // the first worksheet is the first of the workbook's sheet list, whatever its part is called
      const firstId = /** @type {any} */ (reader).model?.sheets?.[0]?.id;
      if (firstId !== undefined && sheet.id !== firstId) continue;
      for await (const row of sheet) {
        if (numbers.length > maxRows) return { outcome: 'too-many-rows' };
        numbers.push(row.number);
        for (let column = 1; column <= columns; column++) cells.push(row.getCell(column).text ?? '');
      }
      return { outcome: 'read', numbers, cells };
    }
  } catch {
    return { outcome: 'unreadable' };
  }
  return { outcome: 'no-sheet' };
};
