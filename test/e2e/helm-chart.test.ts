import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { distRoot, projectRoot } from '../../lib/paths.js';
import { parseDuration } from '../../lib/config.js';
import { resolveHelm } from '../../scripts/local/helm.js';
import { resolveK8sValidate } from '../../scripts/local/k8s-validate.js';
import { SEARCH_ATTRIBUTES } from '../../workflows/contract.js';

/**
 * The Helm chart (deploy/helm/svc-postal), with the helm the project builds like its other Go tools
 * (scripts/local/helm.ts): `helm lint` and `helm template` with the defaults and each overlay, and
 * what the rendered manifests must hold for the processes to run and roll safely.
 */
const CHART = join(projectRoot, 'deploy', 'helm', 'svc-postal');
const OVERLAYS = ['values-temporal-cloud.yaml', 'values-self-hosted-temporal.yaml', 'values-managed-postgres.yaml'];
const ROLES = ['mailings', 'deliveries', 'printing', 'tracking', 'partners'];
const REQUIRED_SECRETS = ['SECRET_KEY', 'DATABASE_URL', 'SMTP_URL'];

/** A rendered Kubernetes manifest, read field by field. */
type Manifest = any;

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
}

describe('Helm chart deploy/helm/svc-postal', function () {
  // The first run on a machine builds helm with `go install` (about a minute, more on a busy one).
  this.timeout(900_000);
  let helm: string;

  const run = (args: string[]): { status: number | null; stdout: string; stderr: string } => {
    const result = spawnSync(helm, args, { cwd: CHART, encoding: 'utf8', timeout: 120_000 });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  const render = (files: string[], set: string[] = []): Manifest[] => {
    const result = run(['template', 'svc', '.', '--namespace', 'mail', ...files.flatMap((f) => ['-f', f]), ...set.flatMap((s) => ['--set', s])]);
    if (result.status !== 0) throw new Error(`helm template ${files.join(' ')} failed: ${result.stderr}`);
    return parseAllDocuments(result.stdout)
      .map((doc) => doc.toJS() as Manifest)
      .filter(Boolean);
  };

  before(async () => {
    helm = await resolveHelm((line) => process.stderr.write(`[helm] ${line}\n`));
  });

  /** `helm template` of these files and settings, decoded strictly by scripts/k8s-validate (the Kubernetes API's Go types). */
  const validate = async (files: string[], set: string[] = []): Promise<{ checked: number; errors: string[] }> => {
    const validator = await resolveK8sValidate((line) => process.stderr.write(`[k8s-validate] ${line}\n`));
    const rendered = run(['template', 'svc', '.', '--namespace', 'mail', ...files.flatMap((f) => ['-f', f]), ...set.flatMap((v) => ['--set', v])]);
    if (rendered.status !== 0) throw new Error(`helm template failed: ${rendered.stderr}`);
    const checked = spawnSync(validator, [], { input: rendered.stdout, encoding: 'utf8', timeout: 60_000 });
    return JSON.parse(checked.stdout) as { checked: number; errors: string[] };
  };

  /** Everything the chart can render at once. */
  const EVERYTHING = [
    'ingress.enabled=true',
    'ingress.tls.secretName=api-tls',
    'networkPolicy.enabled=true',
    'networkPolicy.metricsFrom[0].namespaceSelector.matchLabels.team=monitoring',
    'metrics.podMonitor.enabled=true',
    'extraInitContainers[0].name=proxy',
    'extraInitContainers[0].image=proxy:2',
    'extraInitContainers[0].restartPolicy=Always',
    'extraContainers[0].name=shipper',
    'extraContainers[0].image=shipper:1',
    'extraVolumes[0].name=extra',
    'extraVolumes[0].emptyDir.medium=Memory',
    'extraVolumeMounts[0].name=extra',
    'extraVolumeMounts[0].mountPath=/extra',
  ];

  it('renders only what the Kubernetes API accepts, strictly (unknown fields refused), with each values file and together', async function () {
    this.timeout(900_000); // the first run on a machine builds the validator (k8s.io/api) with Go
    const combinations = [
      [],
      ...OVERLAYS.map((overlay) => [overlay]),
      ['values-temporal-cloud.yaml', 'values-managed-postgres.yaml'],
      ['values-self-hosted-temporal.yaml', 'values-managed-postgres.yaml'],
    ];
    for (const overlays of combinations)
      for (const set of [[], EVERYTHING]) {
        const report = await validate(['values.yaml', ...overlays], set);
        expect(report.errors, `${overlays.join(' + ') || 'defaults'}${set.length ? ', everything on' : ''}`).to.deep.equal([]);
        expect(report.checked).to.be.at.least(set.length ? 14 : 10);
      }
  });

  it('the strict check refuses a field that Kubernetes does not have', async () => {
    const report = await validate(['values.yaml'], ['api.readinessProbe.initialDelay=3']);
    expect(report.errors).to.have.length(1);
    expect(report.errors[0]).to.match(/^Deployment svc-svc-postal-api: .*unknown field "initialDelay"/);
  });

  for (const overlay of [undefined, ...OVERLAYS]) {
    const files = overlay ? ['values.yaml', overlay] : ['values.yaml'];
    describe(overlay ?? 'values.yaml (defaults)', () => {
      let manifests: Manifest[];
      let values: Manifest;
      const kind = (k: string): Manifest[] => manifests.filter((m) => m.kind === k);

      before(() => {
        manifests = render(files);
        // Helm merges maps and replaces lists: enough of it for what is checked here.
        const base = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as Manifest;
        const over = overlay ? (parse(readFileSync(join(CHART, overlay), 'utf8')) as Manifest) : {};
        values = { ...base, ...over, metrics: { ...base.metrics, ...over.metrics }, shutdown: { ...base.shutdown, ...over.shutdown } };
      });

      it('passes helm lint --strict', () => {
        const result = run(['lint', '.', '--strict', ...files.flatMap((f) => ['-f', f])]);
        expect(result.status, result.stdout + result.stderr).to.equal(0);
      });

      it('runs the API and one Deployment per worker entry, each from the image with its command, resources and the secrets of existingSecret', () => {
        const deployments = kind('Deployment');
        const names = deployments.map((d) => d.metadata.name).sort();
        expect(names).to.deep.equal(['svc-svc-postal-api', ...values.workers.map((w: Manifest) => `svc-svc-postal-worker-${w.name}`)].sort());
        for (const deployment of deployments) {
          const pod = deployment.spec.template.spec;
          const [container] = pod.containers;
          const where = deployment.metadata.name;
          expect(pod.containers, where).to.have.length(1);
          // `args`, not `command`: the image's ENTRYPOINT (tini) stays PID 1.
          expect(container.command, where).to.equal(undefined);
          const script = container.args.find((arg: string) => arg.endsWith('.js'));
          expect(existsSync(join(distRoot, script.replace(/^dist\//, ''))), `${where}: ${container.args.join(' ')}`).to.equal(true);
          for (const part of ['requests', 'limits']) expect(container.resources[part], `${where} resources.${part}`).to.include.keys('cpu', 'memory');
          const env = container.env as EnvVar[];
          const byName = new Map(env.map((e) => [e.name, e]));
          expect(env.length, `${where}: a variable set twice`).to.equal(byName.size);
          for (const name of REQUIRED_SECRETS) {
            const ref = byName.get(name)?.valueFrom?.secretKeyRef;
            expect(ref, `${where}: ${name} from a secretKeyRef`).to.include({ name: values.existingSecret, key: name });
            expect(ref!.optional, `${where}: ${name} optional`).to.not.equal(true);
          }
          // No secret is written in the manifests.
          for (const name of Object.keys(values.secretEnv)) expect(byName.get(name)?.value, `${where}: ${name} inline`).to.equal(undefined);
          expect(byName.get('APP_ENV')?.value).to.equal('production');
          expect(byName.get('TEMPORAL_ADDRESS')?.value).to.be.a('string').and.match(/:\d+$/);
          expect(byName.get('MIGRATE_ON_START')?.value, `${where}: the hook migrates, not the pods`).to.equal('0');
          // Graceful drain: preStop, then SHUTDOWN_GRACE, within the termination grace period.
          const preStop = Number(container.lifecycle.preStop.exec.command[1]);
          const grace = parseDuration(byName.get('SHUTDOWN_GRACE')!.value!) / 1000;
          expect(pod.terminationGracePeriodSeconds, `${where}: terminationGracePeriodSeconds`).to.be.above(preStop + grace);
          expect(pod.securityContext.runAsNonRoot).to.equal(true);
          expect(container.securityContext.allowPrivilegeEscalation).to.equal(false);
          if (values.metrics.enabled) {
            expect(byName.get('METRICS_PORT')?.value).to.equal(String(values.metrics.port));
            expect(container.ports.map((p: Manifest) => p.name)).to.include('metrics');
            expect(deployment.spec.template.metadata.annotations).to.include({
              'prometheus.io/scrape': 'true',
              'prometheus.io/port': String(values.metrics.port),
            });
          } else expect(byName.has('METRICS_PORT')).to.equal(false);
        }
      });

      it('probes the API: started and ready on /ready (its database, not Temporal), alive on a route that needs neither', () => {
        const api = kind('Deployment').find((d) => d.metadata.name === 'svc-svc-postal-api');
        const [container] = api.spec.template.spec.containers;
        expect(container.readinessProbe.httpGet).to.include({ path: '/ready', port: 'http' });
        expect(container.startupProbe.httpGet).to.include({ path: '/ready', port: 'http' });
        expect(container.livenessProbe.httpGet.path).to.not.be.oneOf(['/health', '/ready']);
        expect(container.ports.find((p: Manifest) => p.name === 'http').containerPort).to.equal(
          Number(container.env.find((e: EnvVar) => e.name === 'PORT').value),
        );
        expect(api.spec.strategy.rollingUpdate.maxUnavailable).to.equal(0);
      });

      it('gives each worker its roles (WORKER_ROLES) and a liveness probe on HEALTH_PORT, metrics or not', () => {
        for (const worker of values.workers) {
          const deployment = kind('Deployment').find((d) => d.metadata.name === `svc-svc-postal-worker-${worker.name}`);
          const [container] = deployment.spec.template.spec.containers;
          const roles = container.env.find((e: EnvVar) => e.name === 'WORKER_ROLES').value.split(',');
          expect(roles).to.deep.equal(worker.roles);
          for (const role of roles) expect(ROLES).to.include(role);
          expect(container.livenessProbe.httpGet).to.include({ path: '/live', port: 'health' });
          const health = container.ports.find((p: Manifest) => p.name === 'health');
          expect(container.env.find((e: EnvVar) => e.name === 'HEALTH_PORT').value).to.equal(String(health.containerPort));
        }
        // Every role is run by some worker.
        expect(new Set(values.workers.flatMap((w: Manifest) => w.roles))).to.deep.equal(new Set(ROLES));
      });

      it('scales the API and the printing workers (HPA) and keeps one pod of each Deployment through disruptions (PDB)', () => {
        const hpas = kind('HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name);
        expect(hpas).to.include('svc-svc-postal-api');
        const printing = values.workers.filter((w: Manifest) => w.roles.includes('printing')).map((w: Manifest) => `svc-svc-postal-worker-${w.name}`);
        expect(printing).to.have.length.above(0);
        for (const name of printing) expect(hpas).to.include(name);
        for (const deployment of kind('Deployment')) {
          const pdb = kind('PodDisruptionBudget').find((p) => p.metadata.name === deployment.metadata.name);
          expect(pdb, `PDB of ${deployment.metadata.name}`).to.not.equal(undefined);
          expect(pdb.spec.selector.matchLabels).to.deep.equal(deployment.spec.selector.matchLabels);
          // A Deployment scaled by its HPA leaves replicas to it.
          if (hpas.includes(deployment.metadata.name)) expect(deployment.spec.replicas).to.equal(undefined);
        }
      });

      it('migrates in a pre-install/pre-upgrade hook Job with node dist/scripts/migrate.js', () => {
        const job = kind('Job').find((j) => j.metadata.name === 'svc-svc-postal-migrate');
        expect(job.metadata.annotations['helm.sh/hook']).to.equal('pre-install,pre-upgrade');
        const [container] = job.spec.template.spec.containers;
        expect(container.args).to.deep.equal(['node', 'dist/scripts/migrate.js']);
        expect(existsSync(join(distRoot, 'scripts', 'migrate.js'))).to.equal(true);
        expect(container.env.find((e: EnvVar) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef.name).to.equal(values.existingSecret);
        expect(job.spec.template.spec.restartPolicy).to.equal('Never');
      });

      it('replays the running workflows against the new image before an upgrade, before its migrations, once', () => {
        const jobs = kind('Job');
        expect(jobs.map((j) => j.metadata.name).sort()).to.deep.equal(['svc-svc-postal-migrate', 'svc-svc-postal-replay']);
        const replay = jobs.find((j) => j.metadata.name === 'svc-svc-postal-replay');
        const migrate = jobs.find((j) => j.metadata.name === 'svc-svc-postal-migrate');
        expect(replay.metadata.annotations['helm.sh/hook']).to.equal('pre-upgrade');
        // Helm runs hooks of one event by weight, lowest first.
        expect(Number(replay.metadata.annotations['helm.sh/hook-weight'])).to.be.below(Number(migrate.metadata.annotations['helm.sh/hook-weight']));
        expect(replay.spec.backoffLimit).to.equal(0);
        const [container] = replay.spec.template.spec.containers;
        expect(container.args.slice(0, 2)).to.deep.equal(['node', 'dist/scripts/replay.js']);
        expect(existsSync(join(distRoot, 'scripts', 'replay.js'))).to.equal(true);
        const env = new Map((container.env as EnvVar[]).map((e) => [e.name, e]));
        expect(env.get('TEMPORAL_ADDRESS')?.value).to.equal(values.temporal.address);
        expect(env.get('TEMPORAL_NAMESPACE')?.value).to.equal(values.temporal.namespace);
        // The same Temporal credentials and files as the workers.
        const worker = kind('Deployment').find((d) => d.metadata.name.includes('-worker-')).spec.template.spec;
        expect(replay.spec.template.spec.volumes).to.deep.equal(worker.volumes);
        for (const name of ['TEMPORAL_API_KEY', 'TEMPORAL_TLS_CA', 'TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_KEY'])
          expect(env.get(name), name).to.deep.equal((worker.containers[0].env as EnvVar[]).find((e) => e.name === name));
      });

      it('writes no Secret (they come from existingSecret)', () => {
        expect(kind('Secret')).to.deep.equal([]);
      });
    });
  }

  it('Temporal Cloud: an API key from the Secret, no search attribute registration, and the tcld list is ours', () => {
    const manifests = render(['values.yaml', 'values-temporal-cloud.yaml']);
    for (const deployment of manifests.filter((m) => m.kind === 'Deployment')) {
      const env = deployment.spec.template.spec.containers[0].env as EnvVar[];
      const key = env.find((e) => e.name === 'TEMPORAL_API_KEY')!.valueFrom!.secretKeyRef!;
      expect(key.optional).to.not.equal(true);
      expect(env.find((e) => e.name === 'TEMPORAL_REGISTER_SEARCH_ATTRIBUTES')!.value).to.equal('0');
      // An API-key namespace without High Availability answers on its region's endpoint, not on
      // <namespace>.<account>.tmprl.cloud (mTLS, or High Availability).
      expect(env.find((e) => e.name === 'TEMPORAL_ADDRESS')!.value).to.match(/^[a-z0-9-]+\.(aws|gcp)\.api\.temporal\.io:7233$/);
    }
    const text = readFileSync(join(CHART, 'values-temporal-cloud.yaml'), 'utf8');
    const listed = [...text.matchAll(/--sa (\w+)=(\w+)/g)].map((m) => `${m[1]}=${m[2]}`).sort();
    const ours = SEARCH_ATTRIBUTES.map((key) => `${key.name}=${key.type === 'BOOL' ? 'Bool' : 'Keyword'}`).sort();
    expect(listed).to.deep.equal(ours);
  });

  it('self-hosted Temporal: the TLS files are mounted from their Secret where TEMPORAL_TLS_* point', () => {
    const manifests = render(['values.yaml', 'values-self-hosted-temporal.yaml']);
    for (const workload of manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job')) {
      const pod = workload.spec.template.spec;
      const container = pod.containers[0];
      const volume = pod.volumes.find((v: Manifest) => v.name === 'temporal-tls');
      expect(volume.secret.secretName).to.equal('svc-postal-temporal-tls');
      const mount = container.volumeMounts.find((m: Manifest) => m.name === 'temporal-tls');
      for (const name of ['TEMPORAL_TLS_CA', 'TEMPORAL_TLS_CERT', 'TEMPORAL_TLS_KEY'])
        expect(container.env.find((e: EnvVar) => e.name === name).value.startsWith(mount.mountPath + '/'), name).to.equal(true);
    }
  });

  it("managed PostgreSQL: the provider's CA mounted where PGSSLROOTCERT points, in every pod, and the connection count it states", () => {
    const manifests = render(['values.yaml', 'values-managed-postgres.yaml']);
    for (const workload of manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job')) {
      const pod = workload.spec.template.spec;
      const container = pod.containers[0];
      const env = (name: string): string | undefined => container.env.find((e: EnvVar) => e.name === name)?.value;
      expect(pod.volumes.find((v: Manifest) => v.name === 'postgres-tls').secret.secretName).to.equal('svc-postal-postgres-ca');
      const mount = container.volumeMounts.find((m: Manifest) => m.name === 'postgres-tls');
      expect(env('PGSSLROOTCERT'), workload.metadata.name).to.equal(`${mount.mountPath}/ca.crt`);
      expect(env('PGSSLMODE')).to.equal('verify-ca');
      expect(env('DB_POOL_MAX')).to.equal('10');
      expect(parseDuration(env('MIGRATION_LOCK_TIMEOUT')!)).to.equal(5000);
    }
    // The overlay's sum, from what it renders: (pool + 2 listeners) per API pod, pool per worker pod, 2 for migrations.
    const maxPods = (name: string): number => {
      const hpa = manifests.find((m) => m.kind === 'HorizontalPodAutoscaler' && m.metadata.name === name);
      return hpa ? hpa.spec.maxReplicas : manifests.find((m) => m.kind === 'Deployment' && m.metadata.name === name).spec.replicas;
    };
    const deployments = manifests.filter((m) => m.kind === 'Deployment').map((m) => m.metadata.name as string);
    const total = deployments.reduce((sum, name) => sum + maxPods(name) * (name.endsWith('-api') ? 12 : 10), 2);
    const stated = /= (\d+)\n/.exec(readFileSync(join(CHART, 'values-managed-postgres.yaml'), 'utf8'));
    expect(Number(stated?.[1])).to.equal(total);
  });

  it('Temporal Cloud with a managed PostgreSQL: the two overlays together', () => {
    const manifests = render(['values.yaml', 'values-temporal-cloud.yaml', 'values-managed-postgres.yaml']);
    for (const workload of manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job')) {
      const names = (workload.spec.template.spec.containers[0].env as EnvVar[]).map((e) => e.name);
      expect(names).to.include.members(['TEMPORAL_API_KEY', 'PGSSLROOTCERT', 'PGSSLMODE']);
      expect(new Set(names).size, 'no variable twice').to.equal(names.length);
    }
  });

  it('adds extra volumes, mounts and sidecars: native ones to every pod, plain ones to the long-running pods only', () => {
    const manifests = render(
      ['values.yaml'],
      [
        'extraVolumes[0].name=sql-proxy-key',
        'extraVolumes[0].secret.secretName=proxy-key',
        'extraVolumeMounts[0].name=sql-proxy-key',
        'extraVolumeMounts[0].mountPath=/etc/proxy',
        'extraInitContainers[0].name=cloud-sql-proxy',
        'extraInitContainers[0].image=proxy:2',
        'extraInitContainers[0].restartPolicy=Always',
        'extraContainers[0].name=log-shipper',
        'extraContainers[0].image=shipper:1',
      ],
    );
    for (const workload of manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job')) {
      const pod = workload.spec.template.spec;
      expect(pod.volumes.map((v: Manifest) => v.name)).to.include('sql-proxy-key');
      expect(pod.containers[0].volumeMounts.map((m: Manifest) => m.mountPath)).to.include('/etc/proxy');
      expect(pod.initContainers.map((c: Manifest) => c.name)).to.deep.equal(['cloud-sql-proxy']);
      expect(pod.containers.map((c: Manifest) => c.name)).to.deep.equal(
        workload.kind === 'Job' ? [pod.containers[0].name] : [pod.containers[0].name, 'log-shipper'],
      );
    }
  });

  it('rolls the pods when a Secret they read changes: a checksum annotation, the same for every pod', () => {
    const manifests = render(['values.yaml', 'values-managed-postgres.yaml']);
    const sums = manifests.filter((m) => m.kind === 'Deployment').map((m) => m.spec.template.metadata.annotations['checksum/secrets'] as string);
    expect(sums[0]).to.match(/^[0-9a-f]{64}$/);
    expect(new Set(sums).size).to.equal(1);
  });

  it('refuses a PostgreSQL TLS mode that cannot be honoured, and TLS without its Secret', () => {
    const mode = run([
      'template',
      'svc',
      '.',
      '--set',
      'database.tls.enabled=true',
      '--set',
      'database.tls.secretName=ca',
      '--set',
      'database.tls.sslmode=prefer',
    ]);
    expect(mode.status).to.not.equal(0);
    expect(mode.stderr).to.include('database.tls.sslmode: "prefer" is not one of require, verify-ca, verify-full');
    const secret = run(['template', 'svc', '.', '--set', 'database.tls.enabled=true']);
    expect(secret.status).to.not.equal(0);
    expect(secret.stderr).to.include('database.tls.secretName is required');
  });

  it('watches the workers without metrics too, and scrapes every process with a PodMonitor when asked', () => {
    const quiet = render(['values.yaml'], ['metrics.enabled=false']);
    for (const deployment of quiet.filter((m) => m.kind === 'Deployment' && m.metadata.name.includes('-worker-'))) {
      const [container] = deployment.spec.template.spec.containers;
      expect(container.livenessProbe.httpGet).to.include({ path: '/live', port: 'health' });
      expect(container.ports.map((p: Manifest) => p.name)).to.deep.equal(['health']);
    }
    expect(quiet.filter((m) => m.kind === 'PodMonitor')).to.have.length(0);
    const watched = render(['values.yaml'], ['metrics.podMonitor.enabled=true', 'metrics.podMonitor.labels.release=kube-prometheus-stack']);
    const [monitor] = watched.filter((m) => m.kind === 'PodMonitor');
    expect(monitor.metadata.labels.release).to.equal('kube-prometheus-stack');
    expect(monitor.spec.podMetricsEndpoints).to.deep.equal([{ port: 'metrics', path: '/metrics', interval: '30s' }]);
    // It selects the API and the workers by labels they carry, not the migration Job.
    for (const deployment of watched.filter((m) => m.kind === 'Deployment'))
      expect(deployment.spec.template.metadata.labels).to.include(monitor.spec.selector.matchLabels);
  });

  it('runs every pod under its own ServiceAccount with no API token, spread over zones and nodes', () => {
    const manifests = render(['values.yaml']);
    const [account] = manifests.filter((m) => m.kind === 'ServiceAccount');
    expect(account.automountServiceAccountToken).to.equal(false);
    for (const workload of manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job')) {
      const pod = workload.spec.template.spec;
      expect(pod.serviceAccountName, workload.metadata.name).to.equal(account.metadata.name);
      expect(pod.automountServiceAccountToken).to.equal(false);
      if (workload.kind === 'Job') continue;
      const own = workload.spec.selector.matchLabels;
      expect(pod.topologySpreadConstraints.map((c: Manifest) => c.topologyKey)).to.deep.equal(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
      for (const constraint of pod.topologySpreadConstraints) {
        expect(constraint.whenUnsatisfiable).to.equal('ScheduleAnyway');
        expect(constraint.labelSelector.matchLabels).to.deep.equal(own);
      }
      const [preferred] = pod.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution;
      expect(preferred.podAffinityTerm.labelSelector.matchLabels).to.deep.equal(own);
    }
  });

  it("keeps a worker's own affinity, node selector and tolerations (they were dropped once)", () => {
    const manifests = render(
      ['values.yaml'],
      [
        'workers[0].name=printing',
        'workers[0].roles[0]=printing',
        'workers[0].replicas=1',
        'workers[0].nodeSelector.pool=print',
        'workers[0].tolerations[0].key=print',
        'workers[0].tolerations[0].operator=Exists',
        'workers[0].affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key=pool',
        'workers[0].affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator=In',
        'workers[0].affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values[0]=print',
      ],
    );
    const pod = manifests.find((m) => m.kind === 'Deployment' && m.metadata.name.endsWith('-worker-printing')).spec.template.spec;
    expect(pod.nodeSelector).to.deep.equal({ pool: 'print' });
    expect(pod.tolerations).to.deep.equal([{ key: 'print', operator: 'Exists' }]);
    expect(pod.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values).to.deep.equal(['print']);
  });

  it('runs the printing workers from the printing target when image.printingTag is set, every other pod from the image without a browser', () => {
    const images = (set: string[]): Record<string, string> =>
      Object.fromEntries(
        render(['values.yaml'], set)
          .filter((m) => m.kind === 'Deployment' || m.kind === 'Job')
          .map((m) => [m.metadata.name.replace(/^svc-svc-postal-/, ''), m.spec.template.spec.containers[0].image]),
      );
    const split = images(['image.tag=1.2.0', 'image.printingTag=1.2.0-printing', 'workers[2].name=all', 'workers[2].roles=null', 'workers[2].replicas=1']);
    expect(split).to.deep.equal({
      api: 'registry.example.com/svc-postal:1.2.0',
      'worker-core': 'registry.example.com/svc-postal:1.2.0',
      'worker-printing': 'registry.example.com/svc-postal:1.2.0-printing',
      // No roles listed: every role, printing included.
      'worker-all': 'registry.example.com/svc-postal:1.2.0-printing',
      migrate: 'registry.example.com/svc-postal:1.2.0',
      replay: 'registry.example.com/svc-postal:1.2.0',
    });
    // Unset: one image (the default target, with the browser) for every pod.
    expect(new Set(Object.values(images(['image.tag=1.2.0'])))).to.deep.equal(new Set(['registry.example.com/svc-postal:1.2.0']));
  });

  it('serves the API through an Ingress over TLS only, and limits who may connect with NetworkPolicies', () => {
    const missing = run(['template', 'svc', '.', '--set', 'ingress.enabled=true']);
    expect(missing.status).to.not.equal(0);
    expect(missing.stderr).to.include('ingress.tls.secretName is required');
    const manifests = render(
      ['values.yaml'],
      [
        'ingress.enabled=true',
        'ingress.className=nginx',
        'ingress.tls.secretName=api-tls',
        'networkPolicy.enabled=true',
        'networkPolicy.apiFrom[0].namespaceSelector.matchLabels.team=edge',
      ],
    );
    const [ingress] = manifests.filter((m) => m.kind === 'Ingress');
    expect(ingress.spec.ingressClassName).to.equal('nginx');
    expect(ingress.spec.tls).to.deep.equal([{ hosts: ['api.example.fr'], secretName: 'api-tls' }]);
    expect(ingress.spec.rules[0].http.paths[0].backend.service).to.deep.equal({ name: 'svc-svc-postal-api', port: { name: 'http' } });
    const policies = manifests.filter((m) => m.kind === 'NetworkPolicy');
    const api = policies.find((p) => p.metadata.name.endsWith('-api'));
    expect(api.spec.ingress[0]).to.deep.equal({ ports: [{ port: 'http', protocol: 'TCP' }], from: [{ namespaceSelector: { matchLabels: { team: 'edge' } } }] });
    const workers = policies.find((p) => p.metadata.name.endsWith('-workers'));
    // Only probe and metrics ports, on the workers and the Jobs; every port named there exists on the workers.
    const ports = workers.spec.ingress.flatMap((rule: Manifest) => rule.ports.map((port: Manifest) => port.port));
    expect(ports).to.deep.equal(['health', 'metrics']);
    for (const deployment of manifests.filter((m) => m.kind === 'Deployment' && m.metadata.name.includes('-worker-')))
      expect(deployment.spec.template.spec.containers[0].ports.map((p: Manifest) => p.name)).to.include.members(ports);
  });

  it('keeps documents in PostgreSQL by default, and in an S3-compatible bucket with documentStore.kind=s3 (its keys from the Secret)', () => {
    const envOf = (manifests: Manifest[]): Manifest[][] =>
      manifests.filter((m) => m.kind === 'Deployment' || m.kind === 'Job').map((m) => m.spec.template.spec.containers[0].env as Manifest[]);
    for (const env of envOf(render(['values.yaml']))) expect(env.map((e) => e.name)).to.not.include('DOCUMENT_STORE');
    const s3 = render(
      ['values.yaml'],
      ['documentStore.kind=s3', 'documentStore.s3.bucket=letters', 'documentStore.s3.endpoint=http://seaweedfs:8333', 'documentStore.s3.forcePathStyle=true'],
    );
    const envs = envOf(s3);
    expect(envs.length).to.be.above(2);
    for (const env of envs) {
      const value = (name: string) => env.find((e) => e.name === name)?.value;
      expect([value('DOCUMENT_STORE'), value('S3_BUCKET'), value('S3_ENDPOINT'), value('S3_REGION'), value('S3_FORCE_PATH_STYLE')]).to.deep.equal([
        's3',
        'letters',
        'http://seaweedfs:8333',
        'us-east-1',
        '1',
      ]);
      for (const name of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'])
        expect(env.find((e) => e.name === name)?.valueFrom?.secretKeyRef).to.deep.include({ key: name, optional: true });
    }
    const missing = run(['template', 'svc', '.', '--set', 'documentStore.kind=s3']);
    expect(missing.status).to.not.equal(0);
    expect(missing.stderr).to.include('documentStore.s3.bucket is required with documentStore.kind=s3');
    const unknown = run(['template', 'svc', '.', '--set', 'documentStore.kind=gcs']);
    expect(unknown.status).to.not.equal(0);
    expect(unknown.stderr).to.include('documentStore.kind: "gcs" is not one of postgres, s3');
  });

  it('refuses at template time what would misbehave at run time: a grace period too short, a variable set twice', () => {
    const refusals: [string[], string][] = [
      [['shutdown.terminationGracePeriodSeconds=25'], 'must exceed preStopSleepSeconds + shutdownGrace (25 s)'],
      [['shutdown.shutdownGrace=1m'], 'must exceed preStopSleepSeconds + shutdownGrace (65 s)'],
      [['env.PORT=8080'], 'PORT is set by the chart itself'],
      [['env.DATABASE_URL=postgres://x'], 'DATABASE_URL is in both env and secretEnv'],
      [['api.extraEnv.LOG_LEVEL=debug'], 'api.extraEnv: LOG_LEVEL is already set for every process'],
      [['workers[0].name=core', 'workers[0].roles[0]=mailings', 'workers[0].extraEnv.DB_POOL_MAX=20'], 'workers[core].extraEnv: DB_POOL_MAX is already set'],
    ];
    for (const [set, message] of refusals) {
      const result = run(['template', 'svc', '.', ...set.flatMap((value) => ['--set', value])]);
      expect(result.status, set.join(' ')).to.not.equal(0);
      expect(result.stderr, set.join(' ')).to.include(message);
    }
    // Enough: 5 s + 20 s < 26 s.
    expect(run(['template', 'svc', '.', '--set', 'shutdown.terminationGracePeriodSeconds=26']).status).to.equal(0);
  });

  it('refuses a worker role the code does not know, and a missing existingSecret', () => {
    const role = run(['template', 'svc', '.', '--set', 'workers[0].name=x', '--set', 'workers[0].roles[0]=printer']);
    expect(role.status).to.not.equal(0);
    expect(role.stderr).to.include('unknown role "printer"');
    const secret = run(['template', 'svc', '.', '--set', 'existingSecret=']);
    expect(secret.status).to.not.equal(0);
    expect(secret.stderr).to.include('existingSecret is required');
  });
});
