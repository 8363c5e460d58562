package runner

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"

	"crudbench/bench/load"
)

// placementNote says where shard s ran, as far as its own process can
// tell: the pod and the node (POD_NAME and NODE_NAME, which the chart's
// bench Job sets from the downward API; an Indexed Job's pod has the Job's
// name and index as its host name, not its own), the CPUs it may run on and its
// pod's QoS class, read from its cgroup. The shards of the chart are the
// runs that meet at a start barrier, so only those runs note it, and only
// in a pod: "" elsewhere.
func placementNote(s load.Shard) string {
	pod, node := os.Getenv("POD_NAME"), os.Getenv("NODE_NAME")
	status, _ := os.ReadFile("/proc/self/status")
	cgroup, _ := os.ReadFile("/proc/self/cgroup")
	cpus, qos := cpusAllowed(status), qosClass(cgroup)
	if pod == "" && node == "" && qos == "" {
		return "" // not in a pod: shards on machines sharing a folder
	}
	if pod == "" {
		pod = "unknown (no POD_NAME)"
	}
	if node == "" {
		node = "unknown (no NODE_NAME)"
	}
	if cpus == "" {
		cpus = "unknown"
	}
	if qos == "" {
		qos = "unknown (its cgroup does not name one)"
	}
	return fmt.Sprintf("Shard %d/%d ran in pod %s on node %s, on CPUs %s, QoS class %s.", s.Index, s.Count, pod, node, cpus, qos)
}

// cpusAllowed is the CPU list of a /proc/<pid>/status: under the static
// CPU manager, a Guaranteed container's exclusive cores.
func cpusAllowed(status []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(status))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && k == "Cpus_allowed_list" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// qosClass is the QoS class of the pod whose cgroup a /proc/<pid>/cgroup
// names: the kubelet puts Burstable and BestEffort pods under cgroups of
// those names and Guaranteed pods right under kubepods (cgroupfs or systemd
// driver alike). It is "" when no cgroup is under kubepods, as in a
// container that sees its own cgroup as the root.
func qosClass(cgroup []byte) string {
	path := string(cgroup)
	switch {
	case !strings.Contains(path, "kubepods"):
		return ""
	case strings.Contains(path, "besteffort"):
		return "BestEffort"
	case strings.Contains(path, "burstable"):
		return "Burstable"
	}
	return "Guaranteed"
}
