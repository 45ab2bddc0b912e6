{{/*
Object names are the plain service names (identity, chat, …): one name per service for its folder, image
target, Deployment, Service and labels, so UPSTREAM_CHAT=http://chat:3000 holds in every namespace.
One release per namespace follows from that.
*/}}

{{- define "district.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "district.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{/* Labels that never change over a release's life; Deployments select on them. Takes (dict "root" $ "component" name). */}}
{{- define "district.selectorLabels" -}}
app.kubernetes.io/name: {{ include "district.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{/* Common labels for every object. Takes (dict "root" $ "component" name). */}}
{{- define "district.labels" -}}
{{ include "district.selectorLabels" . }}
app.kubernetes.io/part-of: district
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
helm.sh/chart: {{ include "district.chart" .root }}
{{- end -}}

{{- define "district.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{- define "district.configName" -}}district-config{{- end -}}

{{- define "district.secretName" -}}
{{- default "district-secrets" .Values.secrets.existingSecret -}}
{{- end -}}

{{/*
A workload's settings: the defaults with the entry's top-level keys laid over them (a whole key replaces,
it does not merge; see values.yaml). Returns YAML; use with fromYaml. Takes (dict "root" $ "entry" map).
*/}}
{{- define "district.workloadSpec" -}}
{{- $spec := dict -}}
{{- range $key, $value := .root.Values.defaults -}}
{{- $_ := set $spec $key $value -}}
{{- end -}}
{{- range $key, $value := (.entry | default dict) -}}
{{- $_ := set $spec $key $value -}}
{{- end -}}
{{- toYaml $spec -}}
{{- end -}}

{{/* The gateway first, then the services in the map's (sorted) order: one list for every per-workload template. */}}
{{- define "district.workloads" -}}
{{- $list := list (dict "name" "gateway" "spec" (include "district.workloadSpec" (dict "root" . "entry" .Values.gateway) | fromYaml) "gateway" true) -}}
{{- range $name, $entry := .Values.services -}}
{{- $list = append $list (dict "name" $name "spec" (include "district.workloadSpec" (dict "root" $ "entry" $entry) | fromYaml) "gateway" false) -}}
{{- end -}}
{{- toYaml (dict "items" $list) -}}
{{- end -}}

{{/* env entry reading one key of the chart's Secret. Takes (dict "root" $ "key" KEY ["optional" true]). */}}
{{- define "district.secretEnv" -}}
- name: {{ .key }}
  valueFrom:
    secretKeyRef:
      name: {{ include "district.secretName" .root }}
      key: {{ .key }}
      {{- if .optional }}
      optional: true
      {{- end }}
{{- end -}}

{{/* UPSTREAM_<SERVICE> for the gateway, one per entry of the services map. */}}
{{- define "district.upstreamEnv" -}}
{{- range $name, $_ := .Values.services }}
- name: UPSTREAM_{{ $name | upper }}
  value: {{ printf "http://%s:%v" $name $.Values.port | quote }}
{{- end }}
{{- end -}}
