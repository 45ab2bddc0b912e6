// Validates rendered Kubernetes objects against the API schemas, offline (kubernetes-models, generated from the
// Kubernetes OpenAPI document): `node deploy/scripts/validate-k8s.mjs rendered.yaml` (several YAML documents, as
// `helm template` prints them). Prints one JSON line {objects, kinds, errors}; exit 1 when any object is invalid or of
// a kind it has no schema for. An ES module run as its own process: kubernetes-models ships only ES modules.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

const file = process.argv[2];
if (!file) {
  process.stderr.write('usage: validate-k8s.mjs <rendered.yaml>\n');
  process.exit(2);
}

/**
 * The models module of an apiVersion: `v1` is the core group, `apps/v1` → `kubernetes-models/apps/v1`; the Prometheus
 * operator's custom resources (PrometheusRule) come from @kubernetes-models/prometheus-operator, built from its CRDs.
 */
const moduleOf = (apiVersion) =>
  apiVersion.startsWith('monitoring.coreos.com/')
    ? `@kubernetes-models/prometheus-operator/${apiVersion}`
    : `kubernetes-models/${apiVersion}`;

const documents = parseAllDocuments(readFileSync(file, 'utf8'))
  .map((d) => d.toJS())
  .filter((o) => o !== null && o !== undefined);
const errors = [];
const kinds = {};
for (const object of documents) {
  const where = `${object.apiVersion ?? '?'} ${object.kind ?? '?'} ${object.metadata?.name ?? '?'}`;
  let Model;
  try {
    Model = (await import(moduleOf(object.apiVersion)))[object.kind];
  } catch {
    Model = undefined;
  }
  if (typeof Model !== 'function') {
    errors.push(`${where}: no schema for this apiVersion and kind`);
    continue;
  }
  kinds[object.kind] = (kinds[object.kind] ?? 0) + 1;
  try {
    new Model(object).validate();
  } catch (error) {
    errors.push(`${where}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.stdout.write(`${JSON.stringify({ objects: documents.length, kinds, errors })}\n`);
process.exit(errors.length === 0 ? 0 : 1);
