{{- define "svc-postal.name" -}}
{{- .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "svc-postal.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "svc-postal.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
app.kubernetes.io/name: {{ include "svc-postal.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- end -}}

{{/* Selector labels of one component (api, worker-<name>, migrate). */}}
{{- define "svc-postal.selector" -}}
app.kubernetes.io/name: {{ include "svc-postal.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "svc-postal.image" -}}
{{ printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end -}}

{{/* A worker's image: the printing target's (image.printingTag) when its roles include printing (an empty list is every role). */}}
{{- define "svc-postal.workerImage" -}}
{{- $root := .root -}}
{{- $prints := or (not .worker.roles) (has "printing" .worker.roles) -}}
{{- if and $prints $root.Values.image.printingTag -}}
{{ printf "%s:%s" $root.Values.image.repository $root.Values.image.printingTag }}
{{- else -}}
{{ include "svc-postal.image" $root }}
{{- end -}}
{{- end -}}

{{/* The environment every process gets: APP_ENV, Temporal, secrets from existingSecret, plain settings. */}}
{{- define "svc-postal.env" -}}
{{- $v := .Values -}}
- name: APP_ENV
  value: {{ $v.appEnv | quote }}
- name: TEMPORAL_ADDRESS
  value: {{ required "temporal.address is required" $v.temporal.address | quote }}
- name: TEMPORAL_NAMESPACE
  value: {{ $v.temporal.namespace | quote }}
- name: TEMPORAL_REGISTER_SEARCH_ATTRIBUTES
  value: {{ ternary "1" "0" $v.temporal.registerSearchAttributes | quote }}
{{- if $v.temporal.tls.enabled }}
{{- if $v.temporal.tls.caKey }}
- name: TEMPORAL_TLS_CA
  value: {{ printf "%s/%s" $v.temporal.tls.mountPath $v.temporal.tls.caKey | quote }}
{{- end }}
{{- if $v.temporal.tls.certKey }}
- name: TEMPORAL_TLS_CERT
  value: {{ printf "%s/%s" $v.temporal.tls.mountPath $v.temporal.tls.certKey | quote }}
- name: TEMPORAL_TLS_KEY
  value: {{ printf "%s/%s" $v.temporal.tls.mountPath $v.temporal.tls.keyKey | quote }}
{{- end }}
{{- end }}
- name: DB_POOL_MAX
  value: {{ $v.database.poolMax | quote }}
- name: MIGRATION_LOCK_TIMEOUT
  value: {{ $v.migrations.lockTimeout | quote }}
- name: MIGRATION_STATEMENT_TIMEOUT
  value: {{ $v.migrations.statementTimeout | quote }}
{{- if $v.database.tls.enabled }}
{{- if not (has $v.database.tls.sslmode (list "require" "verify-ca" "verify-full")) }}
{{- fail (printf "database.tls.sslmode: %q is not one of require, verify-ca, verify-full" $v.database.tls.sslmode) }}
{{- end }}
- name: PGSSLMODE
  value: {{ $v.database.tls.sslmode | quote }}
- name: PGSSLROOTCERT
  value: {{ printf "%s/%s" $v.database.tls.mountPath (required "database.tls.caKey is required with database.tls.enabled" $v.database.tls.caKey) | quote }}
{{- end }}
{{- if eq $v.documentStore.kind "s3" }}
- name: DOCUMENT_STORE
  value: "s3"
- name: S3_BUCKET
  value: {{ required "documentStore.s3.bucket is required with documentStore.kind=s3" $v.documentStore.s3.bucket | quote }}
- name: S3_REGION
  value: {{ $v.documentStore.s3.region | quote }}
{{- if $v.documentStore.s3.endpoint }}
- name: S3_ENDPOINT
  value: {{ $v.documentStore.s3.endpoint | quote }}
{{- end }}
- name: S3_FORCE_PATH_STYLE
  value: {{ ternary "1" "0" $v.documentStore.s3.forcePathStyle | quote }}
{{- else if ne $v.documentStore.kind "postgres" }}
{{- fail (printf "documentStore.kind: %q is not one of postgres, s3" $v.documentStore.kind) }}
{{- end }}
- name: MIGRATE_ON_START
  value: "0"
- name: SHUTDOWN_GRACE
  value: {{ $v.shutdown.shutdownGrace | quote }}
{{- if $v.metrics.enabled }}
- name: METRICS_PORT
  value: {{ $v.metrics.port | quote }}
{{- end }}
{{- range $name, $ref := $v.secretEnv }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ required "existingSecret is required (a Secret holding SECRET_KEY, DATABASE_URL, SMTP_URL…)" $v.existingSecret }}
      key: {{ $ref.key }}
      {{- if $ref.optional }}
      optional: true
      {{- end }}
{{- end }}
{{- range $name, $value := $v.env }}
- name: {{ $name }}
  value: {{ $value | toString | quote }}
{{- end }}
{{- end -}}

{{/* The Secrets mounted as files (Temporal's TLS, PostgreSQL's CA) and the operator's extraVolumes. */}}
{{- define "svc-postal.tlsVolume" -}}
{{- if .Values.temporal.tls.enabled }}
- name: temporal-tls
  secret:
    secretName: {{ required "temporal.tls.secretName is required with temporal.tls.enabled" .Values.temporal.tls.secretName }}
{{- end }}
{{- if .Values.database.tls.enabled }}
- name: postgres-tls
  secret:
    secretName: {{ required "database.tls.secretName is required with database.tls.enabled" .Values.database.tls.secretName }}
{{- end }}
{{- with .Values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "svc-postal.tlsMount" -}}
{{- if .Values.temporal.tls.enabled }}
- name: temporal-tls
  mountPath: {{ .Values.temporal.tls.mountPath }}
  readOnly: true
{{- end }}
{{- if .Values.database.tls.enabled }}
- name: postgres-tls
  mountPath: {{ .Values.database.tls.mountPath }}
  readOnly: true
{{- end }}
{{- with .Values.extraVolumeMounts }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* The Secrets the processes read, as one checksum: a change rolls the pods at the next upgrade. */}}
{{- define "svc-postal.secretsChecksum" -}}
{{- $namespace := .Release.Namespace -}}
{{- $names := list .Values.existingSecret -}}
{{- if .Values.temporal.tls.enabled }}{{ $names = append $names .Values.temporal.tls.secretName }}{{ end -}}
{{- if .Values.database.tls.enabled }}{{ $names = append $names .Values.database.tls.secretName }}{{ end -}}
{{- $data := list -}}
{{- range $name := $names }}
{{- $secret := lookup "v1" "Secret" $namespace $name -}}
{{- $data = append $data (dict "name" $name "data" (default dict $secret.data)) -}}
{{- end -}}
{{- $data | toJson | sha256sum -}}
{{- end -}}

{{/* Writable folders of a read-only root: /tmp (Chromium's profiles) and HOME (fontconfig cache, DATA_DIR). */}}
{{- define "svc-postal.scratchVolumes" -}}
- name: tmp
  emptyDir: {}
- name: home
  emptyDir: {}
{{- end -}}

{{- define "svc-postal.scratchMounts" -}}
- name: tmp
  mountPath: /tmp
- name: home
  mountPath: /home/node
{{- end -}}

{{- define "svc-postal.podAnnotations" -}}
checksum/secrets: {{ include "svc-postal.secretsChecksum" . }}
{{- with .Values.podAnnotations }}
{{ toYaml . }}
{{- end }}
{{- if .Values.metrics.enabled }}
prometheus.io/scrape: "true"
prometheus.io/port: {{ .Values.metrics.port | quote }}
prometheus.io/path: {{ .Values.metrics.path | quote }}
{{- end }}
{{- end -}}

{{- define "svc-postal.preStop" -}}
lifecycle:
  preStop:
    exec:
      command: ["sleep", "{{ .Values.shutdown.preStopSleepSeconds }}"]
{{- end -}}


{{/* A duration setting (500ms, 20s, 2m, 1h) in whole seconds, rounded up. */}}
{{- define "svc-postal.seconds" -}}
{{- $d := toString . -}}
{{- if hasSuffix "ms" $d -}}{{ div (add (trimSuffix "ms" $d | atoi) 999) 1000 }}
{{- else if hasSuffix "s" $d -}}{{ trimSuffix "s" $d | atoi }}
{{- else if hasSuffix "m" $d -}}{{ mul (trimSuffix "m" $d | atoi) 60 }}
{{- else if hasSuffix "h" $d -}}{{ mul (trimSuffix "h" $d | atoi) 3600 }}
{{- else -}}{{ div (add (atoi $d) 999) 1000 }}
{{- end -}}
{{- end -}}

{{/* The variables the chart sets itself: values may not set them a second time. */}}
{{- define "svc-postal.chartEnvNames" -}}
{{- list "APP_ENV" "TEMPORAL_ADDRESS" "TEMPORAL_NAMESPACE" "TEMPORAL_REGISTER_SEARCH_ATTRIBUTES" "TEMPORAL_TLS_CA" "TEMPORAL_TLS_CERT" "TEMPORAL_TLS_KEY" "DB_POOL_MAX" "MIGRATION_LOCK_TIMEOUT" "MIGRATION_STATEMENT_TIMEOUT" "PGSSLMODE" "PGSSLROOTCERT" "MIGRATE_ON_START" "DOCUMENT_STORE" "S3_BUCKET" "S3_REGION" "S3_ENDPOINT" "S3_FORCE_PATH_STYLE" "SHUTDOWN_GRACE" "METRICS_PORT" "PORT" "WORKER_ROLES" "HEALTH_PORT" | toJson -}}
{{- end -}}

{{/*
Checks made before anything is rendered: a release that would misbehave is refused with the
setting to fix, rather than found out at the first SIGTERM or by a variable silently set twice.
*/}}
{{- define "svc-postal.validate" -}}
{{- $v := .Values -}}
{{- $needed := add $v.shutdown.preStopSleepSeconds (include "svc-postal.seconds" $v.shutdown.shutdownGrace | atoi) -}}
{{- if le (int $v.shutdown.terminationGracePeriodSeconds) (int $needed) -}}
{{- fail (printf "shutdown.terminationGracePeriodSeconds (%v) must exceed preStopSleepSeconds + shutdownGrace (%v s): Kubernetes would kill the pods while they drain" $v.shutdown.terminationGracePeriodSeconds $needed) -}}
{{- end -}}
{{- $chart := include "svc-postal.chartEnvNames" . | fromJsonArray -}}
{{- $secret := keys $v.secretEnv -}}
{{- $plain := keys $v.env -}}
{{- range $name := concat $secret $plain -}}
{{- if has $name $chart -}}
{{- fail (printf "%s is set by the chart itself (from its own values): remove it from env/secretEnv" $name) -}}
{{- end -}}
{{- end -}}
{{- range $name := $plain -}}
{{- if has $name $secret -}}
{{- fail (printf "%s is in both env and secretEnv: keep one" $name) -}}
{{- end -}}
{{- end -}}
{{- $extras := list (dict "where" "api.extraEnv" "env" $v.api.extraEnv) -}}
{{- range $worker := $v.workers -}}
{{- $extras = append $extras (dict "where" (printf "workers[%s].extraEnv" $worker.name) "env" (default dict $worker.extraEnv)) -}}
{{- end -}}
{{- range $extra := $extras -}}
{{- range $name, $_ := $extra.env -}}
{{- if or (has $name $chart) (has $name $secret) (has $name $plain) -}}
{{- fail (printf "%s: %s is already set for every process (by the chart, env or secretEnv)" $extra.where $name) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{/* Pods of one component spread over zones and nodes, as far as the cluster allows (never refused for it). */}}
{{- define "svc-postal.spread" -}}
{{- $selector := include "svc-postal.selector" (dict "root" .root "component" .component) | fromYaml -}}
{{- if .root.Values.spread.enabled }}
topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- toYaml $selector | nindent 8 }}
  - maxSkew: 1
    topologyKey: kubernetes.io/hostname
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        {{- toYaml $selector | nindent 8 }}
{{- end }}
{{- if .affinity }}
affinity:
  {{- toYaml .affinity | nindent 2 }}
{{- else if .root.Values.spread.enabled }}
affinity:
  podAntiAffinity:
    preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          topologyKey: kubernetes.io/hostname
          labelSelector:
            matchLabels:
              {{- toYaml $selector | nindent 14 }}
{{- end }}
{{- end -}}

{{/* The pod-level settings every workload shares: its ServiceAccount, without an API token. */}}
{{- define "svc-postal.podIdentity" -}}
serviceAccountName: {{ include "svc-postal.serviceAccountName" . }}
automountServiceAccountToken: false
{{- end -}}

{{- define "svc-postal.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{ default (include "svc-postal.fullname" .) .Values.serviceAccount.name }}
{{- else -}}
{{ default "default" .Values.serviceAccount.name }}
{{- end -}}
{{- end -}}
