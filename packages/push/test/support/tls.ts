// A throwaway self-signed certificate for 127.0.0.1, made once per test process with the
// openssl CLI (Node cannot issue X.509 certificates itself).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface TestCertificate {
  key: string;
  /** Also the CA to trust: the certificate signs itself. */
  cert: string;
}

let cached: TestCertificate | undefined;

export function testCertificate(): TestCertificate {
  if (cached) return cached;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'push-test-tls-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const certFile = path.join(dir, 'cert.pem');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes',
      '-keyout', keyFile, '-out', certFile, '-days', '2', '-subj', '/CN=127.0.0.1',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ], { stdio: 'ignore', timeout: 10_000 });
    cached = { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8') };
    return cached;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
