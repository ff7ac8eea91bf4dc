// Offline checks of Kubernetes manifests: every document against the typed schema of its kind
// (kubernetes-models: wrong types, missing required fields), then the qs-server specifics a schema
// cannot see: gRPC probes on the health service, resources, non-root and read-only root filesystem,
// a termination grace long enough for the server's drain, a headless Service and HPA/PDB that select
// the Deployment's pods, ports that agree with the flags, and a scrape config promtool accepts.
// Usage: node validate.js FILE.yaml... (multi-document files fine; '-' reads standard input).
// Exit 0 when everything passes; otherwise every problem is printed and the exit status is 1.
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { execFileSync } = require('child_process');
const YAML = require('yaml');

const problems = [];
const fail = (where, message) => problems.push(`${where}: ${message}`);

function modelFor(apiVersion, kind) {
  const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
  const module = require(`kubernetes-models/${group ? group + '/' : ''}${version}/${kind}`);
  return module[kind];
}

// --- 1. typed schema validation --------------------------------------------------------------------
const objects = [];
for (const file of process.argv.slice(2)) {
  const text = fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  for (const doc of YAML.parseAllDocuments(text)) {
    if (doc.errors.length) { fail(file, `YAML: ${doc.errors[0].message}`); continue; }
    const obj = doc.toJSON();
    if (!obj) continue;
    const where = `${file} ${obj.kind}/${obj.metadata && obj.metadata.name}`;
    if (obj.apiVersion === 'kustomize.config.k8s.io/v1beta1') continue;  // not a cluster object
    let Model;
    try { Model = modelFor(obj.apiVersion, obj.kind); } catch (e) {
      fail(where, `unknown apiVersion/kind ${obj.apiVersion} ${obj.kind}`); continue;
    }
    try { new Model(obj).validate(); } catch (e) { fail(where, e.message.split('\n')[0]); continue; }
    objects.push({ where, obj });
    console.log(`schema ok  ${where}`);
  }
}

// --- 2. consistency of the qs-server objects -------------------------------------------------------
const byKind = (kind) => objects.filter((o) => o.obj.kind === kind);
const matches = (selector, labels) =>
  selector && Object.entries(selector).every(([k, v]) => labels && labels[k] === v);
const port = (address) => Number(String(address).split(':').pop());

// Flags from the ConfigMap's flagfile.
const flags = {};
for (const { obj } of byKind('ConfigMap')) {
  const text = obj.data && obj.data['server.flags'];
  if (!text) continue;
  for (const line of text.split('\n')) {
    const m = line.trim().match(/^--([a-z_]+)=(.*)$/);
    if (m) flags[m[1]] = m[2];
  }
}

for (const { where, obj } of byKind('Deployment')) {
  const pod = obj.spec.template.spec;
  const podLabels = obj.spec.template.metadata.labels;
  if (!matches(obj.spec.selector.matchLabels, podLabels)) fail(where, 'selector does not match the pod labels');
  const ctr = pod.containers.find((c) => c.name === 'qs-server');
  if (!ctr) { fail(where, 'no container named qs-server'); continue; }
  const ports = Object.fromEntries((ctr.ports || []).map((p) => [p.name, p.containerPort]));
  if (flags.address && ports.grpc !== port(flags.address)) fail(where, `grpc port ${ports.grpc} != --address ${flags.address}`);
  if (flags.metrics_address && ports.metrics !== port(flags.metrics_address)) fail(where, `metrics port ${ports.metrics} != --metrics_address ${flags.metrics_address}`);
  for (const [name, service] of [['readinessProbe', 'qs.v1.Solver'], ['livenessProbe', '']]) {
    const probe = ctr[name];
    if (!probe || !probe.grpc) { fail(where, `${name} must be a native gRPC probe`); continue; }
    if (probe.grpc.port !== ports.grpc) fail(where, `${name} probes port ${probe.grpc.port}, not the gRPC port ${ports.grpc}`);
    if ((probe.grpc.service || '') !== service) fail(where, `${name} asks health service '${probe.grpc.service}', want '${service}'`);
  }
  const res = ctr.resources || {};
  for (const kind of ['requests', 'limits']) {
    for (const r of ['cpu', 'memory']) if (!res[kind] || !res[kind][r]) fail(where, `resources.${kind}.${r} missing`);
  }
  const sc = ctr.securityContext || {};
  const psc = pod.securityContext || {};
  if (!(sc.runAsNonRoot || psc.runAsNonRoot)) fail(where, 'runAsNonRoot not set');
  const uid = sc.runAsUser !== undefined ? sc.runAsUser : psc.runAsUser;
  if (!(uid > 0)) fail(where, `runAsUser ${uid} is not a non-root uid`);
  if (sc.readOnlyRootFilesystem !== true) fail(where, 'readOnlyRootFilesystem is not true');
  if (sc.allowPrivilegeEscalation !== false) fail(where, 'allowPrivilegeEscalation is not false');
  if (!(sc.capabilities && (sc.capabilities.drop || []).includes('ALL'))) fail(where, 'capabilities do not drop ALL');
  // Termination: preStop sleep, then the drain: grace + 5 s to stop solves + 1 s to close streams.
  const grace = Number(flags.shutdown_grace_seconds !== undefined ? flags.shutdown_grace_seconds : 10);
  const stop = ctr.lifecycle && ctr.lifecycle.preStop;
  const preStop = stop && stop.exec ? Number(stop.exec.command[stop.exec.command.length - 1]) : 0;
  if (!stop) fail(where, 'no preStop hook');
  const needed = preStop + grace + 5 + 1;
  const tgps = pod.terminationGracePeriodSeconds !== undefined ? pod.terminationGracePeriodSeconds : 30;
  if (tgps < needed) fail(where, `terminationGracePeriodSeconds ${tgps} < preStop ${preStop} + shutdown grace ${grace} + 6`);
  const live = ctr.livenessProbe;
  if (live && (live.periodSeconds || 10) * (live.failureThreshold || 3) <= tgps) {
    fail(where, 'the liveness probe can fail within the termination period (the health service is NOT_SERVING while draining)');
  }
  for (const { where: w, obj: svc } of byKind('Service')) {
    if (svc.spec.clusterIP !== 'None') fail(w, 'not headless (clusterIP: None) for client-side balancing');
    if (!matches(svc.spec.selector, podLabels)) fail(w, 'selector does not match the Deployment pods');
    for (const p of svc.spec.ports) {
      const target = typeof p.targetPort === 'string' ? ports[p.targetPort] : p.targetPort;
      if (target === undefined) fail(w, `targetPort ${p.targetPort} is not a container port`);
    }
  }
  for (const { where: w, obj: hpa } of byKind('HorizontalPodAutoscaler')) {
    const ref = hpa.spec.scaleTargetRef;
    if (ref.kind !== 'Deployment' || ref.name !== obj.metadata.name) fail(w, `scaleTargetRef ${ref.kind}/${ref.name} is not the Deployment`);
    if (hpa.spec.minReplicas < 2) fail(w, 'minReplicas < 2 leaves no replica during a rollout or drain');
    if (!res.requests || !res.requests.cpu) fail(w, 'CPU utilization needs a CPU request on the container');
  }
  for (const { where: w, obj: pdb } of byKind('PodDisruptionBudget')) {
    if (!matches(pdb.spec.selector.matchLabels, podLabels)) fail(w, 'selector does not match the Deployment pods');
  }
  const annotations = obj.spec.template.metadata.annotations || {};
  if (annotations['prometheus.io/scrape'] !== 'true' || Number(annotations['prometheus.io/port']) !== ports.metrics) {
    fail(where, 'pod annotations prometheus.io/scrape and prometheus.io/port must name the metrics port');
  }
  const configMaps = pod.volumes.filter((v) => v.configMap).map((v) => v.configMap.name);
  for (const name of configMaps) {
    if (!byKind('ConfigMap').some((c) => c.obj.metadata.name === name)) fail(where, `volume uses missing ConfigMap ${name}`);
  }
}

// Scrape configurations carried in ConfigMaps: promtool must accept them.
const metricsPorts = byKind('Deployment').flatMap((d) => d.obj.spec.template.spec.containers)
  .flatMap((c) => c.ports || []).filter((p) => p.name === 'metrics').map((p) => p.containerPort);
const namespaces = byKind('Namespace').map((n) => n.obj.metadata.name);
const namespace = namespaces.length === 1 ? namespaces[0] : undefined;
for (const { where, obj } of byKind('ConfigMap')) {
  const text = obj.data && obj.data['prometheus.yml'];
  if (!text) continue;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qs-k8s-'));
  try {
    fs.writeFileSync(path.join(dir, 'prometheus.yml'), text);
    for (const job of YAML.parse(text).scrape_configs || []) {
      for (const sd of job.dns_sd_configs || []) {
        if (metricsPorts.length && !metricsPorts.includes(sd.port)) fail(where, `job ${job.job_name} scrapes port ${sd.port}, not the metrics port`);
        for (const name of sd.names) {
          const [svc, ns] = name.split('.');
          if (!byKind('Service').some((s) => s.obj.metadata.name === svc)) fail(where, `job ${job.job_name} resolves ${name}, no such Service`);
          if (namespace && ns !== namespace) fail(where, `job ${job.job_name} resolves ${name} outside namespace ${namespace}`);
        }
      }
    }
    execFileSync('promtool', ['check', 'config', '--syntax-only', path.join(dir, 'prometheus.yml')], { stdio: 'pipe' });
    console.log(`promtool ok  ${where}`);
  } catch (e) {
    if (e.code === 'ENOENT') console.log(`promtool missing: ${where} not checked`);
    else fail(where, `promtool: ${String(e.stderr || e.stdout || e.message).trim().split('\n').pop()}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

for (const p of problems) console.log(`FAIL ${p}`);
console.log(`${objects.length} objects, ${problems.length} problems`);
process.exit(problems.length ? 1 : 0);
