{{/* crudbench.name is the prefix of every object's name: the release's. */}}
{{- define "crudbench.name" -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}

{{/* crudbench.labels are the labels every object carries. */}}
{{- define "crudbench.labels" -}}
app.kubernetes.io/part-of: crudbench
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{/* crudbench.secret is the Secret holding AUTH_SECRET, DATABASE_URL, AMQP_URL and the passwords. */}}
{{- define "crudbench.secret" -}}
{{- .Values.secrets.existingSecret | default (printf "%s-secrets" (include "crudbench.name" .)) -}}
{{- end -}}

{{/* crudbench.database is the database's Service name. */}}
{{- define "crudbench.database" -}}
{{- printf "%s-postgres" (include "crudbench.name" .) -}}
{{- end -}}

{{/*
crudbench.resources are requests equal to limits in whole CPUs: the
Guaranteed QoS class, which the static CPU manager gives exclusive cores.
With the qos values' class Burstable, the CPU request is their
burstableCPU instead, the limit still the whole CPUs. Called with
(list what cpus memory qos).
*/}}
{{- define "crudbench.resources" -}}
{{- $what := index . 0 -}}
{{- $cpus := index . 1 -}}
{{- $memory := index . 2 -}}
{{- $qos := index . 3 -}}
{{- if or (lt (float64 $cpus) 1.0) (ne (float64 $cpus) (floor $cpus)) -}}
{{- fail (printf "%s: cpus %v must be a whole number of CPUs, at least 1 (Guaranteed QoS with exclusive cores)" $what $cpus) -}}
{{- end -}}
{{- $class := $qos.class -}}
{{- if not (has $class (list "Guaranteed" "Burstable")) -}}
{{- fail (printf "qos.class %q: Guaranteed or Burstable" $class) -}}
{{- end -}}
requests:
  cpu: {{ ternary $qos.burstableCPU (int $cpus) (eq $class "Burstable") | quote }}
  memory: {{ $memory | quote }}
limits:
  cpu: {{ int $cpus | quote }}
  memory: {{ $memory | quote }}
{{- end -}}

{{/* crudbench.placement is a role's nodeSelector, affinity and tolerations. Called with a placement value. */}}
{{- define "crudbench.placement" -}}
{{- with .nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* crudbench.image is the image of a Dockerfile target. Called with (list $ target). */}}
{{- define "crudbench.image" -}}
{{- $ := index . 0 -}}
{{- printf "%s/%s:%s" $.Values.image.repository (index . 1) $.Values.image.tag -}}
{{- end -}}

{{/* crudbench.secretEnv is an environment variable from the Secret. Called with (list $ NAME). */}}
{{- define "crudbench.secretEnv" -}}
- name: {{ index . 1 }}
  valueFrom:
    secretKeyRef:
      name: {{ include "crudbench.secret" (index . 0) }}
      key: {{ index . 1 }}
{{- end -}}

{{/*
crudbench.attach is the bench's -attach list: every enabled app through
its Service, but the amqp apps, which the shard script attaches by their
broker's URL (it holds a password: it comes from the Secret).
*/}}
{{- define "crudbench.attach" -}}
{{- $out := list -}}
{{- range $name, $app := .Values.apps.list -}}
{{- if and $app.enabled (not $app.amqp) -}}
{{- $scheme := ternary "grpc" "http" (default false $app.grpc) -}}
{{- $kind := ternary (printf "%s@" $app.kind) "" (not (empty $app.kind)) -}}
{{- $out = append $out (printf "%s=%s%s://%s-%s:%d" $name $kind $scheme (include "crudbench.name" $) $name (int $app.port)) -}}
{{- end -}}
{{- end -}}
{{- join "," $out -}}
{{- end -}}

{{/* crudbench.resultsVolume is the source of the results volume, shared by the shards and the results pod. */}}
{{- define "crudbench.resultsVolume" -}}
{{- if .Values.results.hostPath -}}
hostPath:
  path: {{ .Values.results.hostPath }}
  type: DirectoryOrCreate
{{- else -}}
persistentVolumeClaim:
  claimName: {{ include "crudbench.name" . }}-results
{{- end -}}
{{- end -}}

{{/* crudbench.amqpApps are the enabled amqp apps' names, space-separated: empty when there is none, and then no broker. */}}
{{- define "crudbench.amqpApps" -}}
{{- $out := list -}}
{{- range $name, $app := .Values.apps.list -}}
{{- if and $app.enabled $app.amqp -}}
{{- $out = append $out $name -}}
{{- end -}}
{{- end -}}
{{- join " " $out -}}
{{- end -}}

{{/* crudbench.broker is RabbitMQ's Service name. */}}
{{- define "crudbench.broker" -}}
{{- printf "%s-rabbitmq" (include "crudbench.name" .) -}}
{{- end -}}
