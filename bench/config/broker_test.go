package config_test

import (
	"io"
	"slices"
	"strings"
	"testing"

	"crudbench/bench/config"
)

// TestMissingBroker checks what a machine without RabbitMQ (here: a
// RABBITMQ_SERVER that is not its script) gets: naming amqp is an error
// saying what to install, -apps all and -apps go leave it out with a note
// saying the same, and AMQP_URL or an attached amqp app needs no local
// broker.
func TestMissingBroker(t *testing.T) {
	t.Setenv("RABBITMQ_SERVER", t.TempDir()+"/rabbitmq-server")
	const install = "apt-get install rabbitmq-server"
	for _, apps := range []string{"amqp", "rest,amqp"} {
		t.Run(apps, func(t *testing.T) {
			_, err := config.Parse([]string{"-apps", apps}, env(nil), io.Discard)
			if err == nil || !strings.Contains(err.Error(), "-apps: amqp needs RabbitMQ") || !strings.Contains(err.Error(), install) {
				t.Errorf("-apps %s: %v, want an error saying amqp needs RabbitMQ and what to install", apps, err)
			}
		})
	}
	for _, apps := range []string{"all", "go"} {
		t.Run(apps, func(t *testing.T) {
			cfg, err := config.Parse([]string{"-apps", apps}, env(nil), io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			if slices.Contains(cfg.Apps, "amqp") || !slices.Contains(cfg.Apps, "rest") {
				t.Errorf("apps %q, want amqp left out and the others kept", cfg.Apps)
			}
			if !slices.ContainsFunc(cfg.Notes, func(n string) bool {
				return strings.HasPrefix(n, "-apps left out amqp, which needs RabbitMQ") && strings.Contains(n, install)
			}) {
				t.Errorf("notes %q, want one saying amqp was left out and what to install", cfg.Notes)
			}
		})
	}
	t.Run("AMQP_URL", func(t *testing.T) {
		cfg, err := config.Parse([]string{"-apps", "amqp"}, env(map[string]string{"AMQP_URL": "amqp://u:p@h:5672/v"}), io.Discard)
		if err != nil || !slices.Equal(cfg.Apps, []string{"amqp"}) {
			t.Errorf("apps %q, %v; want amqp", cfg.Apps, err)
		}
	})
	t.Run("attached", func(t *testing.T) {
		cfg, err := config.Parse([]string{"-attach", "amqp=amqp://u:p@h:5672/v"}, env(nil), io.Discard)
		if err != nil || !slices.Equal(cfg.Apps, []string{"amqp"}) {
			t.Errorf("apps %q, %v; want amqp", cfg.Apps, err)
		}
	})
}
