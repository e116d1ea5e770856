// CSV as exports write it (RFC 4180).

/**
 * One cell: quoted when it holds a comma, quote or line break. A text a spreadsheet would run as
 * a formula (=, +, -, @, tab or carriage return first) is prefixed with a single quote: exported
 * texts come from customers (titles) and from visitors' browsers (topics, languages, time zones),
 * and exports are opened in spreadsheets.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
