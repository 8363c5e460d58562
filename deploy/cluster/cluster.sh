#!/usr/bin/env bash
# cluster.sh brings up a real one-node Kubernetes 1.34 on this machine with no
# image registry: the Kubernetes binaries built from the Go module proxy
# (deploy/cluster/k8s), etcd, containerd, runc and the CNI plugins from
# Debian, CoreDNS built from the module proxy (deploy/cluster/coredns), and
# images imported straight into containerd. Run as root.
#
#   cluster.sh up              install, build (once), start; idempotent
#   cluster.sh load IMAGE...   import docker-built images into the node
#   cluster.sh selftest        check pods, Services and DNS, an Indexed Job,
#                              and a Guaranteed pod's exclusive CPU
#   cluster.sh fake-nodes      kwok's controller and three fake nodes, one
#                              per role of the chart (app, db, load)
#   cluster.sh kubectl ARG...  the cluster's kubectl as its admin
#   cluster.sh kubeconfig      the admin's kubeconfig file
#   cluster.sh status          what runs, by PID
#   cluster.sh down            stop everything by PID and remove what up made
#
# Everything up starts is recorded by PID in the state folder and stopped by
# that PID on down; down also removes what the processes left on the host
# (mounts, cgroups, iptables chains, interfaces, sysctls) and the state folder.
# kubectl: export KUBECONFIG="$CLUSTER_STATE/admin.kubeconfig".
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
STATE=${CLUSTER_STATE:-/var/tmp/crudbench-cluster}
CACHE=${CLUSTER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/crudbench-cluster}
BIN=$CACHE/bin
NODE_NAME=${CLUSTER_NODE_NAME:-crudbench}
# Pods get this node's CPUs but the reserved ones, which the static CPU
# manager keeps for the system and for pods that are not Guaranteed.
RESERVED_CPUS=${CLUSTER_RESERVED_CPUS:-0}
POD_CIDR=10.244.0.0/24
SERVICE_CIDR=10.96.0.0/24
API_SERVICE_IP=10.96.0.1
API_PORT=6443
ETCD_CLIENT=127.0.0.1:12379
ETCD_PEER=127.0.0.1:12380
PAUSE_IMAGE=registry.k8s.io/pause:3.10.1
PROBE_IMAGE=crudbench.local/cluster-probe:1
# The pods' bridge. It also holds the Service range's route, so that a
# packet to a Service address that kube-proxy has not rewritten (yet) finds
# no one there instead of following the default route off the machine.
BRIDGE=crudbench0

PACKAGES=(etcd-server containerd runc containernetworking-plugins iptables conntrack openssl iproute2 curl)
# Folders the kubelet, containerd and the CNI plugins use whatever their
# configuration says: those that up finds missing are listed in host-dirs,
# and down removes them (of /run/containerd, only what is empty).
HOST_DIRS=(/var/lib/kubelet /var/lib/cni /run/containerd /var/log/containers)
# The order of `down`: the node first, so that its pods are torn down by the
# kubelet and containerd while the API still answers.
DAEMONS=(kwok coredns kube-proxy kubelet containerd kube-scheduler kube-controller-manager kube-apiserver etcd)
# The fake nodes' roles: the chart's default values put the apps, the
# database and the load on nodes labelled crudbench/role=<role>.
FAKE_ROLES=(app db load)

log() { printf 'cluster: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

ctr_() { ctr --address "$STATE/containerd/containerd.sock" --namespace k8s.io "$@"; }
kubectl_() { "$BIN/kubectl" --kubeconfig "$STATE/admin.kubeconfig" "$@"; }

# wait_for SECONDS WHAT COMMAND...: run COMMAND every half second until it
# succeeds, or fail naming WHAT and the log to read.
wait_for() {
	local seconds=$1 what=$2 i
	shift 2
	for ((i = 0; i < seconds * 2; i++)); do
		if "$@" >/dev/null 2>&1; then return 0; fi
		sleep 0.5
	done
	die "$what did not come up in ${seconds}s; see $STATE/log/"
}

pid_of() { cat "$STATE/pid/$1" 2>/dev/null || true; }

alive() {
	local pid
	pid=$(pid_of "$1")
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# start NAME COMMAND...: start COMMAND in a session of its own, its output in
# log/NAME.log and its PID in pid/NAME, unless it already runs.
start() {
	local name=$1
	shift
	if alive "$name"; then return 0; fi
	log "starting $name"
	setsid "$@" </dev/null >>"$STATE/log/$name.log" 2>&1 &
	echo $! >"$STATE/pid/$name"
}

# stop NAME: SIGTERM, then SIGKILL after 20 s, by the recorded PID.
stop() {
	local name=$1 pid i
	pid=$(pid_of "$name")
	if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
		log "stopping $name ($pid)"
		kill "$pid" 2>/dev/null || true
		for ((i = 0; i < 40; i++)); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.5
		done
		kill -9 "$pid" 2>/dev/null || true
	fi
	rm -f "$STATE/pid/$name"
}

node_ip() {
	if [ -n "${CLUSTER_NODE_IP:-}" ]; then
		echo "$CLUSTER_NODE_IP"
		return
	fi
	# The first global address: the API server's clients and `kubectl logs`
	# reach the kubelet there, which a loopback address would break, and pods
	# reach the host's DNS server there.
	ip -4 -o addr show scope global | awk '{ sub("/.*", "", $4); print $4; exit }'
}

# ---- install and build ----------------------------------------------------

ensure_packages() {
	local missing=() p
	for p in "${PACKAGES[@]}"; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing+=("$p")
	done
	[ ${#missing[@]} -eq 0 ] && return 0
	log "installing ${missing[*]}"
	# Debian starts a packaged daemon on install; this one runs its own
	# copies with their own folders, so none may start.
	local made=
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
		chmod 755 /usr/sbin/policy-rc.d
		made=1
	fi
	grep -qx 'exit 101' /usr/sbin/policy-rc.d || die "/usr/sbin/policy-rc.d does not stop services starting on install"
	local rc=0
	apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" || rc=$?
	if [ -n "$made" ]; then rm -f /usr/sbin/policy-rc.d; fi
	[ "$rc" = 0 ] || die "apt-get could not install ${missing[*]}"
}

# module_sum DIR: a digest of a module's go.mod, go.sum and sources, so a
# change to any of them rebuilds what was built from it.
module_sum() {
	(cd "$1" && find . -name '*.go' -o -name go.mod -o -name go.sum | sort | xargs sha256sum | sha256sum | cut -c1-16)
}

ensure_binaries() {
	mkdir -p "$BIN"
	local sum start
	sum=$(module_sum "$here/k8s")
	if [ "$(cat "$BIN/.k8s.sum" 2>/dev/null)" != "$sum" ]; then
		log "building Kubernetes $(grep -o 'k8s.io/kubernetes v[0-9.]*' "$here/k8s/go.mod" | cut -d' ' -f2) into $BIN (the first build takes about 20 minutes on two busy cores)"
		start=$SECONDS
		(cd "$here/k8s" && nice -n 10 go build -o "$BIN/" tool &&
			CGO_ENABLED=0 nice -n 10 go build -o "$BIN/" ./cmd/...)
		"$BIN/imagearchive" -name "$PAUSE_IMAGE" -binary "$BIN/pause" -o "$BIN/pause.tar" >/dev/null
		"$BIN/imagearchive" -name "$PROBE_IMAGE" -binary "$BIN/probe" -o "$BIN/probe.tar" >/dev/null
		echo "$sum" >"$BIN/.k8s.sum"
		log "built Kubernetes in $((SECONDS - start))s"
	fi
	sum=$(module_sum "$here/coredns")
	if [ "$(cat "$BIN/.coredns.sum" 2>/dev/null)" != "$sum" ]; then
		log "building CoreDNS into $BIN"
		(cd "$here/coredns" && nice -n 10 go build -o "$BIN/coredns" .)
		echo "$sum" >"$BIN/.coredns.sum"
	fi
}

ensure_kwok() {
	local sum start
	sum=$(module_sum "$here/kwok")
	if [ "$(cat "$BIN/.kwok.sum" 2>/dev/null)" != "$sum" ]; then
		log "building kwok $(grep -o 'sigs.k8s.io/kwok v[0-9.]*' "$here/kwok/go.mod" | cut -d' ' -f2) into $BIN"
		start=$SECONDS
		(cd "$here/kwok" && nice -n 10 go build -o "$BIN/" tool)
		echo "$sum" >"$BIN/.kwok.sum"
		log "built kwok in $((SECONDS - start))s"
	fi
}

# ---- certificates and configuration ----------------------------------------

# put FILE: write standard input to FILE unless FILE already says it, so that
# a second up leaves alone the files a running daemon watches (kube-proxy
# exits when its configuration changes).
put() {
	local tmp
	tmp=$(mktemp "$1.XXXXXX")
	cat >"$tmp"
	if cmp -s "$tmp" "$1"; then
		rm -f "$tmp"
	else
		chmod 644 "$tmp"
		mv "$tmp" "$1"
	fi
}

# cert NAME SUBJECT USAGE [SANS]: a key and a certificate signed by the CA.
cert() {
	local name=$1 subject=$2 usage=$3 sans=${4:-}
	[ -s "$STATE/pki/$name.crt" ] && return 0
	openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
		-keyout "$STATE/pki/$name.key" -subj "$subject" -out "$STATE/pki/$name.csr" 2>/dev/null
	{
		echo "basicConstraints=critical,CA:FALSE"
		echo "keyUsage=critical,digitalSignature,keyEncipherment"
		echo "extendedKeyUsage=$usage"
		[ -n "$sans" ] && echo "subjectAltName=$sans"
	} >"$STATE/pki/$name.ext"
	openssl x509 -req -in "$STATE/pki/$name.csr" -CA "$STATE/pki/ca.crt" -CAkey "$STATE/pki/ca.key" \
		-set_serial "0x$(openssl rand -hex 16)" -days 365 -sha256 \
		-extfile "$STATE/pki/$name.ext" -out "$STATE/pki/$name.crt" 2>/dev/null
	rm -f "$STATE/pki/$name.csr" "$STATE/pki/$name.ext"
}

# kubeconfig NAME: a kubeconfig for the client certificate NAME.
kubeconfig() {
	put "$STATE/$1.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: crudbench
  cluster:
    server: https://$NODE_IP:$API_PORT
    certificate-authority: $STATE/pki/ca.crt
users:
- name: $1
  user:
    client-certificate: $STATE/pki/$1.crt
    client-key: $STATE/pki/$1.key
contexts:
- name: crudbench
  context: {cluster: crudbench, user: $1}
current-context: crudbench
EOF
}

write_pki() {
	mkdir -p "$STATE/pki"
	if [ ! -s "$STATE/pki/ca.crt" ]; then
		openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
			-keyout "$STATE/pki/ca.key" -out "$STATE/pki/ca.crt" -days 3650 \
			-subj "/CN=crudbench-cluster-ca" 2>/dev/null
	fi
	if [ ! -s "$STATE/pki/service-account.key" ]; then
		openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$STATE/pki/service-account.key" 2>/dev/null
		openssl pkey -in "$STATE/pki/service-account.key" -pubout -out "$STATE/pki/service-account.pub"
	fi
	cert kube-apiserver "/CN=kube-apiserver" serverAuth \
		"IP:$NODE_IP,IP:$API_SERVICE_IP,IP:127.0.0.1,DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc,DNS:kubernetes.default.svc.cluster.local"
	cert kube-apiserver-kubelet-client "/O=system:masters/CN=kube-apiserver-kubelet-client" clientAuth
	cert kubelet-serving "/CN=$NODE_NAME" serverAuth "IP:$NODE_IP,DNS:$NODE_NAME"
	cert admin "/O=system:masters/CN=crudbench-admin" clientAuth
	cert kube-controller-manager "/CN=system:kube-controller-manager" clientAuth
	cert kube-scheduler "/CN=system:kube-scheduler" clientAuth
	cert kube-proxy "/CN=system:kube-proxy" clientAuth
	cert kubelet "/O=system:nodes/CN=system:node:$NODE_NAME" clientAuth
	local name
	for name in admin kube-controller-manager kube-scheduler kube-proxy kubelet; do
		kubeconfig "$name"
	done
}

write_configs() {
	mkdir -p "$STATE/containerd" "$STATE/cni/net.d" "$STATE/cni/ipam" "$STATE/kubelet" "$STATE/pod-logs" "$STATE/runc"
	put "$STATE/containerd/config.toml" <<EOF
version = 2
root = "$STATE/containerd/root"
state = "$STATE/containerd/state"
[grpc]
  address = "$STATE/containerd/containerd.sock"
[ttrpc]
  address = "$STATE/containerd/containerd.sock.ttrpc"
[plugins."io.containerd.internal.v1.opt"]
  path = "$STATE/containerd/opt"
[plugins."io.containerd.grpc.v1.cri"]
  sandbox_image = "$PAUSE_IMAGE"
  # No container's oom_score_adj goes below containerd's own (0): the
  # kubelet asks -998 for a pod's pause container and -997 for a Guaranteed
  # container, and lowering it needs CAP_SYS_RESOURCE, which a sandboxed
  # machine may lack.
  restrict_oom_score_adj = true
  # Pods' network namespaces under the state folder, not /var/run/netns.
  netns_mounts_under_state_dir = true
  [plugins."io.containerd.grpc.v1.cri".containerd]
    snapshotter = "overlayfs"
    default_runtime_name = "runc"
    [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
      runtime_type = "io.containerd.runc.v2"
      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
        Root = "$STATE/runc"
        SystemdCgroup = false
  [plugins."io.containerd.grpc.v1.cri".cni]
    bin_dir = "/usr/lib/cni"
    conf_dir = "$STATE/cni/net.d"
    max_conf_num = 1
EOF
	put "$STATE/cni/net.d/10-crudbench.conflist" <<EOF
{
  "cniVersion": "1.0.0",
  "name": "crudbench",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "$BRIDGE",
      "isGateway": true,
      "ipMasq": false,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "dataDir": "$STATE/cni/ipam",
        "ranges": [[{"subnet": "$POD_CIDR"}]],
        "routes": [{"dst": "0.0.0.0/0"}]
      }
    }
  ]
}
EOF
	put "$STATE/kubelet/config.yaml" <<EOF
apiVersion: kubelet.config.k8s.io/v1beta1
kind: KubeletConfiguration
address: $NODE_IP
readOnlyPort: 0
healthzBindAddress: 127.0.0.1
tlsCertFile: $STATE/pki/kubelet-serving.crt
tlsPrivateKeyFile: $STATE/pki/kubelet-serving.key
authentication:
  anonymous: {enabled: false}
  webhook: {enabled: false}
  x509: {clientCAFile: $STATE/pki/ca.crt}
authorization: {mode: AlwaysAllow}
containerRuntimeEndpoint: unix://$STATE/containerd/containerd.sock
cgroupDriver: cgroupfs
failCgroupV1: false
failSwapOn: false
oomScoreAdj: 0
cpuManagerPolicy: static
reservedSystemCPUs: "$RESERVED_CPUS"
clusterDNS: [$NODE_IP]
clusterDomain: cluster.local
podLogsDir: $STATE/pod-logs
# No registry can give back an image the kubelet removed.
imageGCHighThresholdPercent: 100
imageGCLowThresholdPercent: 99
evictionHard:
  memory.available: 100Mi
  nodefs.available: 2%
  imagefs.available: 2%
serializeImagePulls: false
EOF
	put "$STATE/kube-proxy.yaml" <<EOF
apiVersion: kubeproxy.config.k8s.io/v1alpha1
kind: KubeProxyConfiguration
clientConnection: {kubeconfig: $STATE/kube-proxy.kubeconfig}
mode: iptables
clusterCIDR: $POD_CIDR
hostnameOverride: $NODE_NAME
healthzBindAddress: 127.0.0.1:10256
metricsBindAddress: 127.0.0.1:10249
nodePortAddresses: [primary]
oomScoreAdj: 0
# Leave the host's conntrack settings as they are.
conntrack: {maxPerCore: 0, min: 0, tcpEstablishedTimeout: 0s, tcpCloseWaitTimeout: 0s}
EOF
	# CoreDNS answers the cluster's zone only: any other name is refused, so
	# no query leaves the machine. It reads the API as the admin, like the
	# rest of the control plane it stands beside.
	put "$STATE/Corefile" <<EOF
.:53 {
    bind $NODE_IP
    errors
    health 127.0.0.1:18080
    ready 127.0.0.1:18181
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        kubeconfig $STATE/admin.kubeconfig crudbench
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
    }
    cache 30
}
EOF
}

# ---- host settings ---------------------------------------------------------

# set_sysctl KEY VALUE: set KEY, remembering for down the value it had.
set_sysctl() {
	local file=/proc/sys/${1//.//}
	grep -q "^$1 " "$STATE/sysctl.saved" 2>/dev/null || echo "$1 $(cat "$file") $2" >>"$STATE/sysctl.saved"
	echo "$2" >"$file"
}

host_up() {
	set_sysctl net.ipv4.ip_forward 1
	# Service traffic between pods on one bridge must pass iptables.
	[ -e /proc/sys/net/bridge/bridge-nf-call-iptables ] || modprobe br_netfilter 2>/dev/null || true
	set_sysctl net.bridge.bridge-nf-call-iptables 1
	if ! ip link show "$BRIDGE" >/dev/null 2>&1; then
		ip link add "$BRIDGE" type bridge
		ip link set "$BRIDGE" up
	fi
	ip route replace "$SERVICE_CIDR" dev "$BRIDGE"
	# Pods talk to each other and to this host, never past it, whatever the
	# FORWARD chain's policy.
	local verdict
	for verdict in "! -o $BRIDGE -j DROP" "-o $BRIDGE -j ACCEPT"; do
		# shellcheck disable=SC2086
		iptables -C FORWARD -i "$BRIDGE" $verdict 2>/dev/null || iptables -I FORWARD -i "$BRIDGE" $verdict
	done
}

host_down() {
	local verdict
	for verdict in "! -o $BRIDGE -j DROP" "-o $BRIDGE -j ACCEPT"; do
		# shellcheck disable=SC2086
		iptables -D FORWARD -i "$BRIDGE" $verdict 2>/dev/null || true
	done
	ip link del "$BRIDGE" 2>/dev/null || true
	# A value someone changed since up is theirs to keep.
	local key old new file
	if [ -f "$STATE/sysctl.saved" ]; then
		while read -r key old new; do
			file=/proc/sys/${key//.//}
			[ "$(cat "$file")" = "$new" ] && echo "$old" >"$file"
		done <"$STATE/sysctl.saved"
	fi
}

# ---- up ----------------------------------------------------------------------

api_ready() { curl -fsS --cacert "$STATE/pki/ca.crt" --cert "$STATE/pki/admin.crt" --key "$STATE/pki/admin.key" "https://$NODE_IP:$API_PORT/readyz" >/dev/null; }
node_ready() { [ "$(kubectl_ get node "$NODE_NAME" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" = True ]; }
dns_ready() { curl -fsS http://127.0.0.1:18181/ready >/dev/null; }

up() {
	[ "$(id -u)" = 0 ] || die "run as root"
	ensure_packages
	command -v go >/dev/null || die "Go is needed to build the Kubernetes binaries"
	ensure_binaries
	NODE_IP=$(node_ip)
	[ -n "$NODE_IP" ] || die "no global IPv4 address to give the node; set CLUSTER_NODE_IP"
	mkdir -p "$STATE/pid" "$STATE/log"
	if [ -f "$STATE/node-ip" ] && [ "$(cat "$STATE/node-ip")" != "$NODE_IP" ]; then
		die "the state in $STATE is for node IP $(cat "$STATE/node-ip"), not $NODE_IP: run down first"
	fi
	echo "$NODE_IP" >"$STATE/node-ip"
	local dir
	for dir in "${HOST_DIRS[@]}"; do
		[ -e "$dir" ] || echo "$dir" >>"$STATE/host-dirs"
	done
	write_pki
	write_configs
	host_up

	start etcd etcd --name crudbench --data-dir "$STATE/etcd" \
		--listen-client-urls "http://$ETCD_CLIENT" --advertise-client-urls "http://$ETCD_CLIENT" \
		--listen-peer-urls "http://$ETCD_PEER" --initial-advertise-peer-urls "http://$ETCD_PEER" \
		--initial-cluster "crudbench=http://$ETCD_PEER" --listen-metrics-urls "" \
		--enable-v2=false --logger zap --log-level warn
	wait_for 30 etcd curl -fsS "http://$ETCD_CLIENT/health"

	start kube-apiserver "$BIN/kube-apiserver" \
		--etcd-servers "http://$ETCD_CLIENT" \
		--bind-address "$NODE_IP" --advertise-address "$NODE_IP" --secure-port "$API_PORT" \
		--tls-cert-file "$STATE/pki/kube-apiserver.crt" --tls-private-key-file "$STATE/pki/kube-apiserver.key" \
		--client-ca-file "$STATE/pki/ca.crt" \
		--kubelet-client-certificate "$STATE/pki/kube-apiserver-kubelet-client.crt" \
		--kubelet-client-key "$STATE/pki/kube-apiserver-kubelet-client.key" \
		--kubelet-certificate-authority "$STATE/pki/ca.crt" \
		--kubelet-preferred-address-types InternalIP \
		--service-account-issuer https://kubernetes.default.svc.cluster.local \
		--service-account-key-file "$STATE/pki/service-account.pub" \
		--service-account-signing-key-file "$STATE/pki/service-account.key" \
		--service-cluster-ip-range "$SERVICE_CIDR" \
		--authorization-mode Node,RBAC --enable-admission-plugins NodeRestriction \
		--allow-privileged=true --profiling=false
	wait_for 120 kube-apiserver api_ready

	start kube-controller-manager "$BIN/kube-controller-manager" \
		--kubeconfig "$STATE/kube-controller-manager.kubeconfig" \
		--authentication-kubeconfig "$STATE/kube-controller-manager.kubeconfig" \
		--authorization-kubeconfig "$STATE/kube-controller-manager.kubeconfig" \
		--bind-address 127.0.0.1 --leader-elect=false --use-service-account-credentials \
		--service-account-private-key-file "$STATE/pki/service-account.key" \
		--root-ca-file "$STATE/pki/ca.crt" \
		--service-cluster-ip-range "$SERVICE_CIDR" --cluster-cidr "$POD_CIDR" --profiling=false
	start kube-scheduler "$BIN/kube-scheduler" \
		--kubeconfig "$STATE/kube-scheduler.kubeconfig" \
		--authentication-kubeconfig "$STATE/kube-scheduler.kubeconfig" \
		--authorization-kubeconfig "$STATE/kube-scheduler.kubeconfig" \
		--bind-address 127.0.0.1 --leader-elect=false --profiling=false

	start containerd containerd --config "$STATE/containerd/config.toml"
	wait_for 30 containerd ctr_ version
	local image
	for image in pause probe; do
		ctr_ images import "$BIN/$image.tar" >/dev/null
	done

	start kubelet "$BIN/kubelet" --config "$STATE/kubelet/config.yaml" \
		--kubeconfig "$STATE/kubelet.kubeconfig" --root-dir "$STATE/kubelet" \
		--cert-dir "$STATE/kubelet/pki" \
		--hostname-override "$NODE_NAME" --node-ip "$NODE_IP"
	start kube-proxy "$BIN/kube-proxy" --config "$STATE/kube-proxy.yaml"
	start coredns "$BIN/coredns" -conf "$STATE/Corefile"
	wait_for 120 "the node" node_ready
	wait_for 60 CoreDNS dns_ready
	# The default ServiceAccount that every pod mounts comes a moment after
	# its namespace.
	wait_for 60 "the default ServiceAccount" kubectl_ get serviceaccount default
	log "up: node $NODE_NAME at $NODE_IP; export KUBECONFIG=$STATE/admin.kubeconfig"
}

# ---- fake nodes ----------------------------------------------------------

fake_nodes_ready() {
	local role
	for role in "${FAKE_ROLES[@]}"; do
		[ "$(kubectl_ get node "kwok-$role" -o jsonpath='{.status.conditions[?(@.type=="Ready")].status}')" = True ] || return 1
	done
}

# fake_nodes: kwok's controller against this cluster's API server, with the
# stages kwokctl gives it by default (nodes Ready at once and kept so by a
# lease, pods Ready at once, a Job's pods completed), managing only the
# nodes annotated kwok.x-k8s.io/node=fake; and three such nodes, kwok-app,
# kwok-db and kwok-load, labelled with their role. The scheduler places
# pods on them as on any node; nothing runs there (no kubelet, no
# container), so a placement test needs no CPUs for them. down stops kwok
# by its PID; the nodes go with etcd's data.
fake_nodes() {
	alive kube-apiserver || die "the cluster is not up"
	ensure_kwok
	local stages s role
	stages=$(cd "$here/kwok" && go list -m -f '{{.Dir}}' sigs.k8s.io/kwok)/kustomize/stage
	for s in node/fast/node-initialize node/heartbeat-with-lease/node-heartbeat-with-lease pod/fast/pod-ready pod/fast/pod-complete pod/fast/pod-delete; do
		[ "$s" = node/fast/node-initialize ] || echo ---
		cat "$stages/$s.yaml"
	done | put "$STATE/kwok.yaml"
	start kwok "$BIN/kwok" --kubeconfig "$STATE/admin.kubeconfig" --config "$STATE/kwok.yaml" \
		--manage-all-nodes=false --manage-nodes-with-annotation-selector kwok.x-k8s.io/node=fake \
		--node-lease-duration-seconds 40 --cidr 10.245.0.0/24 --node-ip 10.245.0.1
	for role in "${FAKE_ROLES[@]}"; do
		kubectl_ apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Node
metadata:
  name: kwok-$role
  annotations: {kwok.x-k8s.io/node: fake}
  labels: {crudbench/role: $role, kubernetes.io/hostname: kwok-$role, kubernetes.io/os: linux, type: kwok}
EOF
	done
	wait_for 60 "kwok's fake nodes" fake_nodes_ready
	log "fake nodes ready: ${FAKE_ROLES[*]/#/kwok-}"
}

# ---- load, status ----------------------------------------------------------

load() {
	[ $# -gt 0 ] || die "usage: cluster.sh load IMAGE..."
	alive containerd || die "the cluster is not up"
	if ! docker info >/dev/null 2>&1; then
		die "load reads images from a running Docker daemon, and none answers: install Debian's docker.io (apt-get install docker.io) and start dockerd, as docker compose needs too (docs/compose.md)"
	fi
	local image
	for image in "$@"; do
		log "loading $image"
		docker save "$image" | ctr_ images import --digests - >/dev/null
	done
	log "loaded; pods must use imagePullPolicy IfNotPresent or Never, since no registry answers a pull"
}

status() {
	local name pid state rc=0
	for name in "${DAEMONS[@]}"; do
		# kwok runs only after fake-nodes.
		[ "$name" = kwok ] && [ ! -f "$STATE/pid/kwok" ] && continue
		pid=$(pid_of "$name")
		if alive "$name"; then state=running; else state=stopped rc=1; fi
		printf '%-24s %-8s %s\n' "$name" "$state" "${pid:--}"
	done
	return $rc
}

# ---- down ------------------------------------------------------------------

# pods_down: have the kubelet tear every pod down, so that containerd and the
# CNI plugin undo their mounts, network namespaces and addresses.
pods_down() {
	alive kubelet && alive kube-apiserver || return 0
	kubectl_ cordon "$NODE_NAME" >/dev/null 2>&1 || true
	kubectl_ delete pods --all --all-namespaces --force --grace-period=0 --wait=false >/dev/null 2>&1 || true
	local i
	for ((i = 0; i < 120; i++)); do
		[ -z "$(ctr_ tasks list -q 2>/dev/null)" ] && return 0
		sleep 0.5
	done
	log "pods still run after 60s; killing their containers"
}

# containers_down: kill and remove whatever containers are left.
containers_down() {
	alive containerd || return 0
	local id
	for id in $(ctr_ containers list -q 2>/dev/null); do
		ctr_ tasks kill -s SIGKILL "$id" >/dev/null 2>&1 || true
		ctr_ tasks delete -f "$id" >/dev/null 2>&1 || true
		ctr_ containers delete "$id" >/dev/null 2>&1 || true
	done
}

# shims_down: stop the runc shims of this containerd, found by the socket
# address on their command line, which is this state folder's, and remove
# their sockets.
shims_down() {
	local dir pid
	for dir in /proc/[0-9]*; do
		pid=${dir#/proc/}
		{ tr '\0' ' ' <"$dir/cmdline"; } 2>/dev/null | grep -q -- "-address $STATE/containerd/containerd.sock " || continue
		kill -9 "$pid" 2>/dev/null || true
	done
	# A shim killed leaves its socket, named as containerd names it.
	local task
	for task in "$STATE"/containerd/state/io.containerd.runtime.v2.task/k8s.io/*; do
		[ -d "$task" ] || continue
		rm -f "/run/containerd/s/$(printf '%s' "$STATE/containerd/containerd.sock/k8s.io/${task##*/}" | sha256sum | cut -c1-64)"
	done
}

# cgroups_down: remove the kubelet's kubepods cgroups, killing first any
# process still in them, which can only be a container of this node's pods
# that outlived its shim.
cgroups_down() {
	local hierarchy pid
	for hierarchy in /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods; do
		[ -d "$hierarchy" ] || continue
		find "$hierarchy" -name cgroup.procs -exec cat {} + 2>/dev/null |
			while read -r pid; do kill -9 "$pid" 2>/dev/null || true; done
	done
	# A killed process leaves its cgroup a moment later.
	local i left
	for ((i = 0; i < 20; i++)); do
		left=0
		for hierarchy in /sys/fs/cgroup/*/kubepods /sys/fs/cgroup/kubepods; do
			[ -d "$hierarchy" ] || continue
			find "$hierarchy" -depth -type d -exec rmdir {} + 2>/dev/null || left=1
		done
		[ "$left" = 0 ] && return 0
		sleep 0.5
	done
	log "could not remove every kubepods cgroup"
}

iptables_down() {
	local table chain
	for table in filter nat mangle; do
		for chain in $(iptables -t "$table" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^KUBE-/ { print $2 }'); do
			iptables -t "$table" -F "$chain" 2>/dev/null || true
		done
		iptables -t "$table" -S 2>/dev/null | awk '$1 == "-A" && $0 ~ / -j KUBE-/ && $2 !~ /^KUBE-/' |
			while read -r _ rule; do
				eval "iptables -t $table -D $rule" 2>/dev/null || true
			done
		for chain in $(iptables -t "$table" -S 2>/dev/null | awk '$1 == "-N" && $2 ~ /^KUBE-/ { print $2 }'); do
			iptables -t "$table" -X "$chain" 2>/dev/null || true
		done
	done
}

down() {
	[ "$(id -u)" = 0 ] || die "run as root"
	[ -d "$STATE" ] || { log "down: nothing to remove"; return 0; }
	pods_down
	local name
	for name in "${DAEMONS[@]}"; do
		[ "$name" = containerd ] && containers_down
		stop "$name"
		[ "$name" = containerd ] && shims_down
	done
	if [ -x "$BIN/kube-proxy" ]; then
		"$BIN/kube-proxy" --cleanup >/dev/null 2>&1 || true
	fi
	iptables_down
	# Mounts under the state folder (volumes, container root filesystems),
	# deepest first, before the folder goes.
	awk -v state="$STATE" 'index($5, state "/") == 1 { print $5 }' /proc/self/mountinfo | sort -r |
		while read -r mount; do umount -l "$mount" 2>/dev/null || true; done
	cgroups_down
	find /var/log/containers -maxdepth 1 -type l -lname "$STATE/*" -delete 2>/dev/null || true
	local dir
	if [ -f "$STATE/host-dirs" ]; then
		while read -r dir; do
			case $dir in
			# Every containerd keeps its shims' sockets here, a Docker
			# engine's too: only empty folders go.
			/run/containerd) find "$dir" -depth -type d -empty -delete 2>/dev/null || true ;;
			*) rm -rf --one-file-system "$dir" ;;
			esac
		done <"$STATE/host-dirs"
	fi
	host_down
	rm -rf --one-file-system "$STATE"
	log "down: stopped and removed"
}

# ---- selftest --------------------------------------------------------------

# check NAME COMMAND...: one selftest check, counted.
check() {
	local name=$1
	shift
	if "$@"; then
		echo "ok   $name"
		passed=$((passed + 1))
	else
		echo "FAIL $name"
		failed=$((failed + 1))
	fi
}

check_pod_ready() {
	kubectl_ -n selftest apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata: {name: echo, labels: {app: echo}}
spec:
  containers:
  - name: echo
    image: $PROBE_IMAGE
    imagePullPolicy: Never
    args: [serve, ":8080"]
    readinessProbe: {httpGet: {port: 8080, path: /}, periodSeconds: 1}
EOF
	kubectl_ -n selftest wait --for=condition=Ready pod/echo --timeout=120s >/dev/null
}

check_service_by_dns() {
	kubectl_ -n selftest apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Service
metadata: {name: echo}
spec:
  selector: {app: echo}
  ports: [{port: 80, targetPort: 8080}]
---
apiVersion: v1
kind: Pod
metadata: {name: client}
spec:
  restartPolicy: Never
  containers:
  - name: client
    image: $PROBE_IMAGE
    imagePullPolicy: Never
    args: [get, "http://echo.selftest.svc.cluster.local/"]
EOF
	kubectl_ -n selftest wait --for=jsonpath='{.status.phase}'=Succeeded pod/client --timeout=120s >/dev/null &&
		kubectl_ -n selftest logs client | grep -q '^ok echo$'
}

check_indexed_job() {
	kubectl_ -n selftest apply -f - >/dev/null <<EOF
apiVersion: batch/v1
kind: Job
metadata: {name: indexed}
spec:
  completionMode: Indexed
  completions: 2
  parallelism: 2
  backoffLimit: 0
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: index
        image: $PROBE_IMAGE
        imagePullPolicy: Never
        args: [index]
EOF
	kubectl_ -n selftest wait --for=condition=Complete job/indexed --timeout=120s >/dev/null &&
		[ "$(kubectl_ -n selftest logs -l job-name=indexed | sort | tr '\n' ' ')" = "index 0 index 1 " ]
}

# The static CPU manager gives a Guaranteed container with a whole CPU a CPU
# of its own: one CPU, not a reserved one.
check_exclusive_cpu() {
	kubectl_ -n selftest apply -f - >/dev/null <<EOF
apiVersion: v1
kind: Pod
metadata: {name: guaranteed}
spec:
  containers:
  - name: cpuset
    image: $PROBE_IMAGE
    imagePullPolicy: Never
    args: [cpuset]
    resources:
      requests: {cpu: "1", memory: 64Mi}
      limits: {cpu: "1", memory: 64Mi}
EOF
	kubectl_ -n selftest wait --for=condition=Ready pod/guaranteed --timeout=120s >/dev/null || return 1
	local qos cpus
	qos=$(kubectl_ -n selftest get pod guaranteed -o jsonpath='{.status.qosClass}')
	cpus=$(kubectl_ -n selftest logs guaranteed | sed -n 's/^cpus //p')
	echo "     qos $qos, cpus $cpus, reserved $RESERVED_CPUS"
	[ "$qos" = Guaranteed ] && [[ $cpus =~ ^[0-9]+$ ]] && [ "$cpus" != "$RESERVED_CPUS" ]
}

selftest() {
	if ! alive kube-apiserver || ! alive kubelet; then
		die "the cluster is not up"
	fi
	passed=0 failed=0
	kubectl_ delete namespace selftest --ignore-not-found --wait >/dev/null
	kubectl_ create namespace selftest >/dev/null
	wait_for 60 "the selftest namespace's ServiceAccount" kubectl_ -n selftest get serviceaccount default
	check "a pod becomes Ready" check_pod_ready
	check "a Service answers by its DNS name from a pod" check_service_by_dns
	check "an Indexed Job of 2 completes" check_indexed_job
	check "a Guaranteed 1-CPU pod gets a CPU of its own" check_exclusive_cpu
	if [ "$failed" -gt 0 ]; then
		kubectl_ -n selftest get pods -o wide >&2 || true
	fi
	kubectl_ delete namespace selftest --wait=false >/dev/null
	echo "selftest: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
}

case ${1:-} in
up) up ;;
load)
	shift
	load "$@"
	;;
selftest) selftest ;;
fake-nodes) fake_nodes ;;
kubectl)
	shift
	kubectl_ "$@"
	;;
kubeconfig) echo "$STATE/admin.kubeconfig" ;;
status) status ;;
down) down ;;
*) die "usage: cluster.sh up | load IMAGE... | selftest | fake-nodes | kubectl ARG... | kubeconfig | status | down" ;;
esac
