// The address a request is rate-limited by. Only a loopback peer (the gateway's proxy on the
// same host) is trusted to name the client in X-Forwarded-For, and only in the entry it
// appended itself: the last one. Earlier entries come from the client and could be anything,
// so reading the first would let a caller pick a fresh rate-limit bucket per request.
import type { Request } from 'express';

function isLoopback(address: string): boolean {
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

export function clientAddress(req: Request): string {
  const peer = req.socket.remoteAddress ?? 'unknown';
  if (!isLoopback(peer)) return peer;
  const forwarded = req.get('x-forwarded-for')?.split(',').at(-1)?.trim();
  return forwarded ? forwarded.slice(0, 100) : peer;
}
