import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface PrivateCa {
  /** The CA's certificate, as a provider hands it out (e.g. a bundle to download). */
  caFile: string;
  /** The server's certificate and key, signed by the CA. */
  certPem: string;
  keyPem: string;
}

/**
 * A certificate authority of our own, made with openssl in `dir`, and one server certificate it
 * signs for `names` (DNS names): what a managed database's provider does with its own CA. The keys
 * protect nothing and go with the folder.
 */
export function makePrivateCa(dir: string, label: string, names: string[]): PrivateCa {
  mkdirSync(dir, { recursive: true });
  const file = (name: string): string => join(dir, name);
  const openssl = (...args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
  openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'ca-key.pem');
  openssl(
    ...['req', '-x509', '-new', '-key', 'ca-key.pem', '-out', 'ca.pem', '-days', '2', '-subj', `/CN=${label} CA`],
    ...['-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'],
  );
  openssl('genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', 'server-key.pem');
  openssl('req', '-new', '-key', 'server-key.pem', '-subj', `/CN=${names[0]}`, '-out', 'server.csr');
  writeFileSync(
    file('server.ext'),
    `basicConstraints=critical,CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=${names.map((name) => `DNS:${name}`).join(',')}\n`,
  );
  openssl(
    ...['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca-key.pem', '-CAcreateserial'],
    ...['-out', 'server.pem', '-days', '2', '-extfile', 'server.ext'],
  );
  return { caFile: file('ca.pem'), certPem: readFileSync(file('server.pem'), 'utf8'), keyPem: readFileSync(file('server-key.pem'), 'utf8') };
}
