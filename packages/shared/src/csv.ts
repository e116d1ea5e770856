// CSV as exports write it (RFC 4180).

/**
 * Where a spreadsheet could start a cell inside the text: its start, and after every `;` or tab,
 * the separators a spreadsheet may be set to split on (`;` wherever the decimal mark is a
 * comma). A list joined with `;` (a subscriber's topics) is such a text, and so is any text a
 * visitor wrote.
 */
const CELL_STARTS = /(?<=^|[;\t])(?=[=+\-@\t\r])/g;

/**
 * One cell: quoted when it holds a comma, quote or line break. Every part a spreadsheet would run
 * as a formula (=, +, -, @, tab or carriage return first, at the start or after a `;` or tab) is
 * prefixed with a single quote: exported texts come from customers (titles) and from visitors'
 * browsers (topics, languages, time zones), and exports are opened in spreadsheets.
 */
export function csvCell(value: string): string {
  const safe = value.replace(CELL_STARTS, "'");
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
