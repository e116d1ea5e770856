// Reads a request body within the size limit and turns it into the JSON text sent to the
// backend. Parsing here only proves the text is a JSON object; the backend reads the fields,
// because the spec names each wrongly typed field and a typed message would erase the type.
import express from 'express';
import type { Request, Response } from 'express';
import { HttpError, MESSAGES } from '../texts.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export type BodyReader = (req: Request, res: Response) => Promise<Buffer | undefined>;

export function createBodyReader(limitBytes: number): BodyReader {
  // Any content type is read: the spec asks for application/json, but a missing or different
  // header must not turn a valid body into "no body".
  const raw = express.raw({ type: () => true, limit: limitBytes });
  return (req, res) =>
    new Promise((resolve, reject) => {
      raw(req, res, (err?: unknown) => {
        if (!err) return resolve(Buffer.isBuffer(req.body) ? req.body : undefined);
        const type = (err as { type?: string }).type;
        reject(type === 'entity.too.large' ? new HttpError(413, MESSAGES.bodyTooLarge) : new HttpError(400, MESSAGES.invalidJson));
      });
    });
}

/**
 * The body as JSON text of an object. `emptyAs` is what an absent or blank body means
 * (undefined: a body is required).
 */
export function jsonObjectText(body: Buffer | undefined, emptyAs?: string): string {
  let text: string;
  try {
    text = body ? utf8.decode(body) : '';
  } catch {
    throw new HttpError(400, MESSAGES.invalidJson);
  }
  if (text.trim() === '') {
    if (emptyAs !== undefined) return emptyAs;
    throw new HttpError(400, MESSAGES.invalidJson);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new HttpError(400, MESSAGES.invalidJson);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new HttpError(400, MESSAGES.invalidJson);
  return text;
}
