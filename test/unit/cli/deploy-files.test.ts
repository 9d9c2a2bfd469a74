/**
 * The files under deploy/ and the Docker build context, checked without a cluster or a Docker
 * daemon (neither runs here): the Kubernetes manifests against the Kubernetes schemas
 * (kubernetes-models, offline), the nginx configurations as `navette deploy nginx` writes them, the
 * compose file's replicas against the shards, every COPY source of the Dockerfile present and the
 * data kept out of the context by .dockerignore.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { readConfigFile } from '../../../src/cli/config.js';
import { nginxConfig, replicaAddresses } from '../../../src/cli/deploy-nginx.js';
import { assignShards } from '../../../src/cli/shards.js';

const K8S = 'deploy/kubernetes';
const CONFIG = 'deploy/navette.json';

const resources = () =>
  readdirSync(K8S)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((f) => parseAllDocuments(readFileSync(path.join(K8S, f), 'utf8')).map((d) => ({ file: f, obj: d.toJS() as Record<string, any> })));

async function validate(obj: Record<string, any>): Promise<void> {
  const module = (await import(`kubernetes-models/${obj['apiVersion']}/${obj['kind']}`)) as Record<string, new (o: unknown) => { validate(): void }>;
  new module[obj['kind']]!(obj).validate();
}

test('every Kubernetes manifest is valid against the Kubernetes schemas; a broken one is not', async () => {
  const all = resources();
  assert.ok(all.length >= 9);
  for (const { file, obj } of all) await assert.doesNotReject(validate(obj), `${file}: ${obj['kind']} ${obj['metadata']?.name}`);
  const broken = structuredClone(all.find((r) => r.obj['kind'] === 'Deployment')!.obj);
  broken['spec'].replicas = 'two';
  await assert.rejects(validate(broken));
});

test('a Deployment and a Service per shard, probes on /readyz and /healthz, the Ingress routing each coverage to its shard', () => {
  const config = readConfigFile(CONFIG);
  const shards = assignShards(config, undefined);
  const all = resources().map((r) => r.obj);
  const ingressPaths = all.find((o) => o['kind'] === 'Ingress')!['spec'].rules[0].http.paths as { path: string; backend: { service: { name: string } } }[];
  for (const shard of shards) {
    const deployment = all.find((o) => o['kind'] === 'Deployment' && o['metadata'].name === `navette-${shard.name}`)!;
    const container = deployment['spec'].template.spec.containers[0];
    assert.deepEqual(container.args, ['serve', '--config', '/etc/navette/navette.json', '--only', shard.coverages.map((c) => c.id).join(',')]);
    assert.equal(container.readinessProbe.httpGet.path, '/readyz');
    assert.equal(container.livenessProbe.httpGet.path, '/healthz');
    assert.ok(container.resources.requests.memory);
    assert.ok(all.some((o) => o['kind'] === 'Service' && o['metadata'].name === `navette-${shard.name}`));
    for (const c of shard.coverages) assert.equal(ingressPaths.find((p) => p.path === `/v1/coverage/${c.id}`)?.backend.service.name, `navette-${shard.name}`);
  }
  assert.ok(all.some((o) => o['kind'] === 'Job' && o['spec'].template.spec.containers[0].args[0] === 'build'));
});

test('the nginx configurations under deploy/ are what navette deploy nginx writes', () => {
  const config = readConfigFile(CONFIG);
  const shards = assignShards(config, undefined, () => 0);
  const generated = (replicas: number, template: string) =>
    nginxConfig({ configFile: CONFIG, shards, replicas: replicaAddresses(shards, replicas, template, undefined), listen: '8080', workers: 'auto', upstreamHeader: false });
  assert.equal(readFileSync('deploy/compose/nginx.conf', 'utf8'), generated(2, 'navette-{shard}-{replica}:9090'), 'navette deploy nginx --config deploy/navette.json --replicas 2 --listen 8080 --out deploy/compose/nginx.conf');
  assert.equal(readFileSync(`${K8S}/nginx.conf`, 'utf8'), generated(1, 'navette-{shard}:9090'));
  // the compose file runs those replicas, each on its shard
  const compose = parseAllDocuments(readFileSync('deploy/compose/docker-compose.yml', 'utf8'))[0]!.toJS() as { services: Record<string, { command?: string[] }> };
  for (const shard of shards) {
    for (let r = 0; r < 2; r++) assert.equal(compose.services[`navette-${shard.name}-${r}`]?.command?.at(-1), shard.coverages.map((c) => c.id).join(','));
  }
});

test('the Docker build context: every COPY source exists, .dockerignore leaves out the data but the demo, and the development files', () => {
  const dockerfile = readFileSync('Dockerfile', 'utf8');
  const copies = [...dockerfile.matchAll(/^COPY (?!--from)(.+)$/gm)].map((m) => m[1]!.trim().split(/\s+/).slice(0, -1));
  assert.ok(copies.length >= 3);
  for (const sources of copies) for (const s of sources) assert.ok(existsSync(s), `COPY ${s}`);
  const ignore = readFileSync('.dockerignore', 'utf8').split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
  for (const needed of ['node_modules', 'dist', 'test', 'bench', 'data/*', '!data/demo']) assert.ok(ignore.includes(needed), `.dockerignore: ${needed}`);
  assert.ok(ignore.indexOf('data/*') < ignore.indexOf('!data/demo'), 'the demo is let back in after the data is left out');
});

test('the matrix Indexed Job: one pod per slice, --shard K/N by its completion index, and a merge of every part in order', () => {
  const all = resources().map((r) => r.obj);
  const job = all.find((o) => o['kind'] === 'Job' && o['metadata'].name === 'navette-matrix')!;
  assert.equal(job['spec'].completionMode, 'Indexed');
  const n = job['spec'].completions as number;
  const args = job['spec'].template.spec.containers[0].args as string[];
  assert.equal(args[0], 'matrix');
  assert.equal(args[args.indexOf('--shard') + 1], `$(JOB_COMPLETION_INDEX)/${n}`);
  const part = args[args.indexOf('--out') + 1]!;
  assert.match(part, /\$\(JOB_COMPLETION_INDEX\)/);
  // the coverage and its point set are in the configuration the pods read
  const config = readConfigFile(CONFIG);
  const coverage = config.coverages.find((c) => c.id === args[args.indexOf('--coverage') + 1]);
  assert.ok(coverage?.pointSets?.some((p) => p.name === args[args.indexOf('--origins') + 1]));
  const merge = all.find((o) => o['kind'] === 'Job' && o['metadata'].name === 'navette-matrix-merge')!;
  const mergeArgs = merge['spec'].template.spec.containers[0].args as string[];
  assert.equal(mergeArgs[0], 'merge');
  assert.deepEqual(
    mergeArgs.slice(3),
    Array.from({ length: n }, (_, k) => part.replace('$(JOB_COMPLETION_INDEX)', String(k))),
  );
});
