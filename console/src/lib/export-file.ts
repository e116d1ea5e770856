// A streamed CSV export (docs/console.md, "Exports") read as it comes: its rows counted for the
// progress shown meanwhile, then handed to the browser as a file. Rows are counted by their line
// ends outside quoted fields (a campaign's title may hold a line break), across chunk bounds.

const QUOTE = 0x22;
const NEWLINE = 0x0a;

/** Counts the records of a CSV fed in chunks: line ends outside quotes (RFC 4180's "" toggles twice). */
export function createRowCounter() {
  let quoted = false;
  let lines = 0;
  return {
    add(chunk: Uint8Array): void {
      for (const byte of chunk) {
        if (byte === QUOTE) quoted = !quoted;
        else if (byte === NEWLINE && !quoted) lines++;
      }
    },
    /** Records after the header line. */
    get rows(): number {
      return Math.max(0, lines - 1);
    },
  };
}

/**
 * Reads the export's body to its end, calling `onRows` with the rows so far after each chunk,
 * and saves it as `filename`. Answers the rows in all. The file is assembled in a Blob, which
 * browsers keep on disk past their memory budget for blobs.
 */
export async function saveCsvExport(res: Response, filename: string, onRows: (rows: number) => void): Promise<number> {
  if (!res.body) throw new Error('The browser gave no way to read the export');
  const reader = res.body.getReader();
  const counter = createRowCounter();
  const parts: Uint8Array[] = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    counter.add(value);
    onRows(counter.rows);
  }
  saveBlob(new Blob(parts as BlobPart[], { type: 'text/csv;charset=utf-8' }), filename);
  return counter.rows;
}

/** Hands a file made in the page to the browser's downloads. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = filename;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // After the click has started the download: revoking at once can cancel it in some browsers.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
