package runner_test

import (
	"testing"

	"crudbench/bench/runner"
)

// TestQoSClass checks the QoS class read from a pod's cgroup, with the
// kubelet's cgroupfs and systemd drivers, and none outside Kubernetes.
func TestQoSClass(t *testing.T) {
	for _, tt := range []struct{ name, cgroup, want string }{
		{"guaranteed cgroupfs", "12:cpuset:/kubepods/pod6f1c/0a1b\n11:cpu,cpuacct:/kubepods/pod6f1c/0a1b\n", "Guaranteed"},
		{"burstable cgroupfs", "12:cpuset:/kubepods/burstable/pod6f1c/0a1b\n", "Burstable"},
		{"besteffort cgroupfs", "12:cpuset:/kubepods/besteffort/pod6f1c/0a1b\n", "BestEffort"},
		{"guaranteed systemd", "0::/kubepods.slice/kubepods-pod6f1c.slice/cri-containerd-0a1b.scope\n", "Guaranteed"},
		{"burstable systemd", "0::/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod6f1c.slice/cri-containerd-0a1b.scope\n", "Burstable"},
		{"own namespace", "0::/\n", ""},
		{"no kubernetes", "0::/user.slice/user-0.slice/session-1.scope\n", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := runner.QoSClass([]byte(tt.cgroup)); got != tt.want {
				t.Errorf("QoS class %q, want %q", got, tt.want)
			}
		})
	}
}

// TestCPUsAllowed checks the CPU list read from /proc/<pid>/status.
func TestCPUsAllowed(t *testing.T) {
	status := "Name:\tbench\nCpus_allowed:\t0c\nCpus_allowed_list:\t2-3\nMems_allowed_list:\t0\n"
	if got := runner.CPUsAllowed([]byte(status)); got != "2-3" {
		t.Errorf("CPUs %q, want 2-3", got)
	}
	if got := runner.CPUsAllowed([]byte("Name:\tbench\n")); got != "" {
		t.Errorf("CPUs %q from a status without them, want none", got)
	}
}
