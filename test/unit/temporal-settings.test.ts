import { expect } from 'chai';
import { join } from 'node:path';
import { loadConfig, WORKER_ROLES } from '../../lib/config.js';
import { projectRoot } from '../../lib/paths.js';
import { searchAttributeCommands, temporalConnectionOptions } from '../../temporal/connection.js';
import { roleQueues } from '../../worker/worker.js';

const pki = (name: string): string => join(projectRoot, 'test', 'fixtures', 'tls', 'temporal', name);
/** A configuration from these settings alone (and a secret key, so nothing is written). */
const config = (env: Record<string, string>) => loadConfig({ SECRET_KEY: 'ab'.repeat(32), ...env });
const refusal = (env: Record<string, string>): string => {
  try {
    config(env);
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('Temporal connection settings (TEMPORAL_TLS_*, TEMPORAL_API_KEY)', () => {
  it('without any: plain gRPC, no key, no header', () => {
    const c = config({ TEMPORAL_ADDRESS: 'temporal:7233' });
    expect(c.temporalTls).to.equal(undefined);
    expect(temporalConnectionOptions('temporal:7233', 'default', c)).to.deep.equal({ address: 'temporal:7233' });
  });

  it('mTLS: the CA, the client certificate pair and the name to check, read from their files', () => {
    const c = config({
      TEMPORAL_ADDRESS: '10.0.0.5:7233',
      TEMPORAL_TLS_CA: pki('ca.pem'),
      TEMPORAL_TLS_CERT: pki('client.pem'),
      TEMPORAL_TLS_KEY: pki('client-key.pem'),
      TEMPORAL_TLS_SERVER_NAME: 'temporal.internal',
    });
    const options = temporalConnectionOptions('10.0.0.5:7233', 'postal', c);
    expect(options.apiKey).to.equal(undefined);
    expect(options.tls?.serverNameOverride).to.equal('temporal.internal');
    expect(Buffer.from(options.tls!.serverRootCACertificate!).toString()).to.include('BEGIN CERTIFICATE');
    expect(Buffer.from(options.tls!.clientCertPair!.crt).toString()).to.include('BEGIN CERTIFICATE');
    expect(Buffer.from(options.tls!.clientCertPair!.key).toString()).to.include('PRIVATE KEY');
  });

  it('Temporal Cloud API key: TLS on with the system CAs, apiKey, and the namespace header', () => {
    const c = config({ TEMPORAL_ADDRESS: 'eu-west-1.aws.api.temporal.io:7233', TEMPORAL_NAMESPACE: 'postal.a1b2c', TEMPORAL_API_KEY: 'tmprl-key' });
    expect(temporalConnectionOptions('eu-west-1.aws.api.temporal.io:7233', c.temporalNamespace, c)).to.deep.equal({
      address: 'eu-west-1.aws.api.temporal.io:7233',
      tls: {},
      apiKey: 'tmprl-key',
      metadata: { 'temporal-namespace': 'postal.a1b2c' },
    });
  });

  it('refuses, in one line naming the setting: half a client pair, an unreadable or non-PEM file, TLS to the embedded server', () => {
    expect(refusal({ TEMPORAL_ADDRESS: 'x:7233', TEMPORAL_TLS_CERT: pki('client.pem') })).to.include('TEMPORAL_TLS_CERT and TEMPORAL_TLS_KEY go together');
    expect(refusal({ TEMPORAL_ADDRESS: 'x:7233', TEMPORAL_TLS_KEY: pki('client-key.pem') })).to.include('set both or neither');
    expect(refusal({ TEMPORAL_ADDRESS: 'x:7233', TEMPORAL_TLS_CA: '/nowhere/ca.pem' })).to.match(/^TEMPORAL_TLS_CA: cannot read \/nowhere\/ca.pem \(ENOENT\)/);
    expect(refusal({ TEMPORAL_ADDRESS: 'x:7233', TEMPORAL_TLS_CA: pki('client-key.pem') })).to.include('holds no PEM a CA certificate');
    expect(refusal({ TEMPORAL_ADDRESS: 'x:7233', TEMPORAL_TLS_CERT: pki('client.pem'), TEMPORAL_TLS_KEY: pki('client.pem') })).to.include('TEMPORAL_TLS_KEY');
    expect(refusal({ TEMPORAL_API_KEY: 'k' })).to.include('TEMPORAL_API_KEY needs TEMPORAL_ADDRESS');
  });
});

describe('search attributes at a worker start (TEMPORAL_REGISTER_SEARCH_ATTRIBUTES)', () => {
  it('registered by default only on the dev server started here (no TEMPORAL_ADDRESS); 1 or 0 say otherwise', () => {
    expect(config({}).temporalRegisterSearchAttributes).to.equal(true);
    expect(config({ TEMPORAL_ADDRESS: 'x:7233' }).temporalRegisterSearchAttributes).to.equal(false);
    expect(config({ TEMPORAL_ADDRESS: 'x:7233', TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: '1' }).temporalRegisterSearchAttributes).to.equal(true);
    expect(config({ TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: '0' }).temporalRegisterSearchAttributes).to.equal(false);
    expect(refusal({ TEMPORAL_REGISTER_SEARCH_ATTRIBUTES: 'yes' })).to.equal('TEMPORAL_REGISTER_SEARCH_ATTRIBUTES must be 1 or 0, got "yes"');
  });

  it('the commands that create them: the temporal CLI (one type per command) and tcld', () => {
    const { cli, cloud } = searchAttributeCommands('postal.a1b2c');
    expect(cli).to.deep.equal([
      'temporal operator search-attribute create --namespace postal.a1b2c --type Keyword --name AccountId --name MailingReference --name MailingMode --name MailingStatus --name WebhookEndpointId --name WebhookEventId --name WebhookEventType --name DeliveryStatus',
      'temporal operator search-attribute create --namespace postal.a1b2c --type Bool --name MailingTest',
    ]);
    expect(cloud).to.equal(
      'tcld namespace search-attributes add --namespace postal.a1b2c --search-attribute "AccountId=Keyword" --search-attribute "MailingReference=Keyword" --search-attribute "MailingMode=Keyword" --search-attribute "MailingStatus=Keyword" --search-attribute "MailingTest=Bool" --search-attribute "WebhookEndpointId=Keyword" --search-attribute "WebhookEventId=Keyword" --search-attribute "WebhookEventType=Keyword" --search-attribute "DeliveryStatus=Keyword"',
    );
  });
});

describe('worker roles (WORKER_ROLES) and the shutdown grace (SHUTDOWN_GRACE)', () => {
  it('all roles by default; a list chooses some; an unknown one is refused by name', () => {
    expect(config({}).workerRoles).to.deep.equal([...WORKER_ROLES]);
    expect(config({ WORKER_ROLES: ' printing , mailings' }).workerRoles).to.deep.equal(['mailings', 'printing']);
    expect(refusal({ WORKER_ROLES: 'mailings,pdf' })).to.equal('WORKER_ROLES: unknown role "pdf" (roles: mailings, deliveries, printing, tracking, partners)');
  });

  it('each role polls its own task queues, none twice', () => {
    const queues = roleQueues('postal-api');
    expect(queues).to.deep.equal({
      mailings: ['postal-api'],
      deliveries: ['postal-api-deliveries'],
      printing: ['postal-api-printing'],
      tracking: ['postal-api-tracking'],
      partners: ['postal-api-interactive', 'partner-geocoding', 'partner-companies', 'partner-routing', 'partner-fuel', 'partner-llm'],
    });
    const all = Object.values(queues).flat();
    expect(new Set(all).size).to.equal(all.length);
  });

  it('no drain locally and 20 s deployed by default; a duration otherwise, refused by name when it is none', () => {
    expect(config({}).shutdownGraceMs).to.equal(0);
    expect(config({ APP_ENV: 'preprod', PUBLIC_URL: 'https://x.example' }).shutdownGraceMs).to.equal(20_000);
    expect(config({ SHUTDOWN_GRACE: '2m' }).shutdownGraceMs).to.equal(120_000);
    expect(refusal({ SHUTDOWN_GRACE: 'soon' })).to.match(/^SHUTDOWN_GRACE: invalid duration "soon"/);
  });
});
