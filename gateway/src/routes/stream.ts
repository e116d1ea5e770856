// How a StreamAnswer (an export) is written, for the /v2 router and the console's alike: its
// first chunk read before the status is chosen (a refusal made at once is still a JSON error),
// then 200 and the chunks as the client takes them; a client gone cancels the backend call.
import type { Request, Response } from 'express';
import type { Logger } from '@webpush/shared/log.js';
import { requestIdOf } from '../http/request-id.js';
import type { StreamAnswer } from './route.js';

/** A StreamAnswer whose first chunk has been read (or that turned out empty). */
export class ReadStream {
  constructor(
    readonly answer: StreamAnswer,
    readonly first: IteratorResult<Buffer>,
    readonly rest: AsyncIterator<Buffer>,
  ) {}
}

export async function firstChunkRead(answer: StreamAnswer): Promise<ReadStream> {
  const rest = answer.chunks[Symbol.asyncIterator]();
  return new ReadStream(answer, await rest.next(), rest);
}

/** 200 and the chunks; a failure after the first chunk can only cut the answer short. */
export async function sendStream(req: Request, res: Response, read: ReadStream, logger: Logger): Promise<void> {
  const { answer } = read;
  res.status(200).set({ 'Cache-Control': 'no-store', 'Content-Type': answer.contentType, 'Content-Disposition': `attachment; filename="${answer.filename}"` });
  if (req.method === 'HEAD') {
    answer.cancel();
    res.end();
    return;
  }
  let gone = false;
  res.once('close', () => {
    if (!res.writableFinished) (gone = true), answer.cancel();
  });
  try {
    for (let next = read.first; !next.done && !gone; next = await read.rest.next()) {
      if (!res.write(next.value)) await new Promise<void>((resolve) => {
        const go = () => (res.off('drain', go), res.off('close', go), resolve());
        res.on('drain', go);
        res.on('close', go);
      });
    }
    if (!gone) res.end();
  } catch (err) {
    // Headers are out: the client sees the answer end early (no final chunk), never a complete-looking one.
    // A client that went away cancelled the backend call itself: nothing to report then.
    if (!gone) logger.error('stream answer failed after it started', { requestId: requestIdOf(res), err: err instanceof Error ? err : undefined });
    answer.cancel();
    res.destroy();
  }
}
