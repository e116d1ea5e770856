// A throwaway CA and a leaf for 127.0.0.1/localhost (and any further names asked for), made with
// the openssl CLI so the simulator needs no certificate library. Clients trust `caCertPem` (or
// NODE_EXTRA_CA_CERTS=caCertFile).
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Certificates {
  dir: string;
  caCertPem: string;
  caCertFile: string;
  keyPem: string;
  certPem: string;
  remove(): Promise<void>;
}

/** `dnsNames`: names the leaf is valid for besides localhost (a test server standing in for a real host). */
export async function makeCertificates(dnsNames: readonly string[] = []): Promise<Certificates> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'push-simulator-'));
  const file = (name: string) => path.join(dir, name);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  try {
    await openssl(['req', '-x509', ...ec, '-keyout', file('ca.key'), '-out', file('ca.pem'), '-days', '7',
      '-subj', '/CN=push-simulator throwaway CA',
      '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign']);
    await openssl(['req', ...ec, '-keyout', file('leaf.key'), '-out', file('leaf.csr'), '-subj', '/CN=localhost']);
    await writeFile(file('leaf.ext'), [
      `subjectAltName=${['IP:127.0.0.1', 'IP:::1', 'DNS:localhost', ...dnsNames.map((name) => `DNS:${name}`)].join(',')}`,
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature',
      'extendedKeyUsage=serverAuth',
    ].join('\n') + '\n');
    await openssl(['x509', '-req', '-in', file('leaf.csr'), '-CA', file('ca.pem'), '-CAkey', file('ca.key'),
      '-CAcreateserial', '-out', file('leaf.pem'), '-days', '7', '-sha256', '-extfile', file('leaf.ext')]);
    // The CA key is useless after signing; removing it keeps the trust anchor single-use.
    await rm(file('ca.key'), { force: true });
    const [caCertPem, keyPem, certPem] = await Promise.all([
      readFile(file('ca.pem'), 'utf8'), readFile(file('leaf.key'), 'utf8'), readFile(file('leaf.pem'), 'utf8'),
    ]);
    return { dir, caCertPem, caCertFile: file('ca.pem'), keyPem, certPem, remove: () => rm(dir, { recursive: true, force: true }) };
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
}

async function openssl(args: string[]): Promise<void> {
  try {
    await run('openssl', args, { timeout: 30_000 });
  } catch (err) {
    const e = err as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT') {
      throw new Error('push simulator: the `openssl` command was not found on PATH; install OpenSSL or start with tls: false');
    }
    throw new Error(`push simulator: openssl ${args[0]} failed: ${(e.stderr ?? e.message).trim()}`);
  }
}
