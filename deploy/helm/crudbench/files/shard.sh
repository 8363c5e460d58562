#!/bin/sh
# shard.sh runs one shard of the bench Job: it finds every app replica's
# metrics address, runs the bench with the flags it is given plus those
# addresses, leaves a done marker naming its results folder and, on shard
# 0, waits for every shard's marker and merges their folders into one.
#
# Environment (set by the Job): INDEX, SHARDS, RUN_DIR (this Job's folder
# on the results volume), APPS (name:replicas ...), PREFIX (the Services'
# name prefix), NAMESPACE, CLUSTER_DOMAIN, METRICS_PORT, WAIT_SECONDS (the
# longest wait for replicas and for the other shards' markers), and with
# amqp apps AMQP_APPS (their names) and AMQP_URL (their broker's).
set -u
trap 'exit 143' TERM INT

BENCH=${BENCH:-/usr/local/bin/bench}

markers="$RUN_DIR/done"
mine="$markers/$INDEX"
mkdir -p "$markers" "$RUN_DIR/shard$INDEX"

# fail ends the shard with a message that says what to look at.
fail() {
	echo "shard $INDEX/$SHARDS: $*" >&2
	exit 1
}

# The amqp apps are attached by their broker's URL, which holds its
# password: it comes from the Secret, not the Job's args, is added here to
# the -attach list (or is the list), and is never printed.
if [ -n "${AMQP_APPS:-}" ]; then
	[ -n "${AMQP_URL:-}" ] || fail "AMQP_URL is empty: the amqp apps ($AMQP_APPS) cannot be attached by their broker"
	amqp=""
	for app in $AMQP_APPS; do
		amqp="$amqp${amqp:+,}$app=amqp@$AMQP_URL"
	done
	prev=""
	attached=""
	for arg; do
		shift
		if [ "$prev" = -attach ]; then
			arg="${arg:+$arg,}$amqp"
			attached=1
		fi
		set -- "$@" "$arg"
		prev=$arg
	done
	[ -n "$attached" ] || set -- "$@" -attach "$amqp"
fi

# replicas prints the addresses of an app's ready replicas, as its headless
# Service names them (by its full name: busybox's nslookup does not search
# the pod's DNS domains).
replicas() {
	nslookup -type=a "$PREFIX-$1-replicas.$NAMESPACE.svc.$CLUSTER_DOMAIN" 2>/dev/null | awk '/^Name:/ { named = 1 } named && /^Address/ { print $NF }'
}

# A shard that already ran to the end (its pod retried, e.g. shard 0
# after a failed merge) does not run its load again; one that failed does,
# joining the started run late.
ran=""
[ -s "$mine" ] && read -r ran _ <"$mine"
if [ "$ran" != 0 ]; then
	# The start barrier's test holds shard LATE_INDEX back LATE_SECONDS
	# (bench.lateShard), as a pod scheduled late would be.
	if [ "${LATE_SECONDS:-0}" -gt 0 ] && [ "${LATE_INDEX:-}" = "$INDEX" ]; then
		echo "shard $INDEX/$SHARDS: starting ${LATE_SECONDS}s late (bench.lateShard)"
		sleep "$LATE_SECONDS"
	fi
	deadline=$(($(date +%s) + WAIT_SECONDS))
	metrics=""
	for entry in $APPS; do
		app=${entry%%:*}
		want=${entry##*:}
		while :; do
			found=$(replicas "$app")
			got=$(echo "$found" | grep -c .)
			[ "$got" -eq "$want" ] && break
			[ "$(date +%s)" -ge "$deadline" ] && fail "$app has $got ready replicas behind $PREFIX-$app-replicas, not $want, after ${WAIT_SECONDS}s"
			sleep 1
		done
		for ip in $found; do
			metrics="$metrics${metrics:+,}$app=http://$ip:$METRICS_PORT/metrics"
		done
	done

	# As the pod's first process, sh would ignore the kubelet's TERM: pass
	# it on, so that the bench stops its attack and cleans up its rows.
	"$BENCH" -metrics-url "$metrics" -out "$RUN_DIR/shard$INDEX" "$@" &
	child=$!
	trap 'kill -TERM "$child" 2>/dev/null' TERM INT
	status=0
	wait "$child" || status=$?
	if kill -0 "$child" 2>/dev/null; then
		status=0
		wait "$child" || status=$?
	fi
	trap - TERM INT
	# The newest folder is this attempt's; the marker is written whole
	# (renamed into place), so shard 0 never reads half of one.
	folder=$(ls -d "$RUN_DIR/shard$INDEX"/*/ 2>/dev/null | tail -n 1)
	echo "$status ${folder%/}" >"$mine.tmp" && mv "$mine.tmp" "$mine"
	[ "$status" -eq 0 ] || fail "the bench ended with status $status (its folder: ${folder:-none})"
fi
[ "$INDEX" -eq 0 ] || exit 0

# Shard 0 merges once every shard has left a marker of success (a failed
# shard's retry replaces its marker); a shard that does not within
# WAIT_SECONDS fails the merge with its name instead of holding the Job.
deadline=$(($(date +%s) + WAIT_SECONDS))
folders=""
k=0
while [ "$k" -lt "$SHARDS" ]; do
	status=none
	[ -s "$markers/$k" ] && read -r status folder <"$markers/$k"
	if [ "$status" = 0 ]; then
		folders="$folders $folder"
		k=$((k + 1))
		continue
	fi
	[ "$(date +%s)" -ge "$deadline" ] && fail "shard $k left no marker of success in $markers within ${WAIT_SECONDS}s (its status: $status): no merge"
	sleep 1
done
# shellcheck disable=SC2086 # one argument per shard folder
"$BENCH" merge -out "$RUN_DIR/merged" $folders || fail "bench merge failed"
ln -sfn "$(basename "$RUN_DIR")" "$(dirname "$RUN_DIR")/latest"
echo "merged: $(ls -d "$RUN_DIR/merged"/*/ | tail -n 1)"
