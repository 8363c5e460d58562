package broker

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
)

// installHint is what a missing broker's error says to do.
const installHint = "install it (Debian/Ubuntu: apt-get install rabbitmq-server), set RABBITMQ_SERVER to its rabbitmq-server script, or give AMQP_URL (TEST_AMQP_URL for tests) to use a broker of your own"

// FindServer locates the rabbitmq-server script that runs a node in the
// caller's process (not a wrapper that switches to another user, as
// Debian's /usr/sbin/rabbitmq-server does under root) and the epmd binary
// of the Erlang it runs on: $RABBITMQ_SERVER if set, else
// /usr/lib/rabbitmq/bin (Debian, Ubuntu), else the newest
// /usr/lib/rabbitmq/lib/rabbitmq_server-<version>/sbin, else
// rabbitmq-server on PATH when it is the real script (a rabbitmq-env
// beside it).
func FindServer() (server, epmd string, err error) {
	server, err = findScript()
	if err != nil {
		return "", "", err
	}
	epmd, err = findEpmd()
	if err != nil {
		return "", "", err
	}
	return server, epmd, nil
}

func findScript() (string, error) {
	if path := os.Getenv("RABBITMQ_SERVER"); path != "" {
		if !isScript(path) {
			return "", fmt.Errorf("broker: RABBITMQ_SERVER=%s is not RabbitMQ's rabbitmq-server script (with rabbitmq-env beside it): %s", path, installHint)
		}
		return path, nil
	}
	candidates := []string{"/usr/lib/rabbitmq/bin/rabbitmq-server"}
	versioned, _ := filepath.Glob("/usr/lib/rabbitmq/lib/rabbitmq_server-*/sbin/rabbitmq-server")
	slices.Reverse(versioned) // Glob sorts; the newest last, for versions of one width
	candidates = append(candidates, versioned...)
	if path, err := exec.LookPath("rabbitmq-server"); err == nil {
		candidates = append(candidates, path)
	}
	for _, path := range candidates {
		if isScript(path) {
			return path, nil
		}
	}
	return "", errors.New("broker: RabbitMQ's rabbitmq-server not found: " + installHint)
}

// isScript reports whether path resolves to an executable with
// rabbitmq-env beside it, which the real script sources and the wrappers
// lack.
func isScript(path string) bool {
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	return isExecutable(real) && isFile(filepath.Join(filepath.Dir(real), "rabbitmq-env"))
}

func findEpmd() (string, error) {
	if path, err := exec.LookPath("epmd"); err == nil {
		return path, nil
	}
	candidates := []string{"/usr/lib/erlang/bin/epmd"}
	versioned, _ := filepath.Glob("/usr/lib/erlang/erts-*/bin/epmd")
	slices.Reverse(versioned)
	for _, path := range append(candidates, versioned...) {
		if isExecutable(path) {
			return path, nil
		}
	}
	return "", errors.New("broker: Erlang's epmd not found (RabbitMQ's Erlang lacks it): " + installHint)
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && !fi.IsDir()
}
