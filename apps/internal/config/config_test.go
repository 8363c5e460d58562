package config_test

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"crudbench/apps/internal/config"
)

// env returns a getenv over a fixed map, so tests never see the real
// environment.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func load(t *testing.T, args []string, vars map[string]string) (config.Config, error) {
	t.Helper()
	return config.Load("testapp", args, env(vars), ":8081", io.Discard)
}

func TestLoadDefaults(t *testing.T) {
	got, err := load(t, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := config.Config{
		DatabaseURL:    "postgres://postgres@localhost:5432/crudbench?sslmode=disable",
		Addr:           ":8081",
		DBMaxConns:     20,
		LogLevel:       slog.LevelInfo,
		AuthSecret:     []byte(config.DevAuthSecret),
		TokenTTL:       time.Hour,
		RequestTimeout: 5 * time.Second,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("defaults (-want +got):\n%s", diff)
	}
	if !got.UsesDevAuthSecret() {
		t.Error("UsesDevAuthSecret() = false with the default secret")
	}
}

func TestLoadEnv(t *testing.T) {
	got, err := load(t, nil, map[string]string{
		"DATABASE_URL":    "postgres://app@db:5432/x",
		"ADDR":            "127.0.0.1:9000",
		"DB_MAX_CONNS":    "7",
		"LOG_LEVEL":       "DEBUG",
		"AUTH_SECRET":     "0123456789abcdef",
		"TOKEN_TTL":       "30m",
		"REQUEST_TIMEOUT": "750ms",
		"DEBUG_ADDR":      "127.0.0.1:6060",
		"METRICS_ADDR":    ":9100",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := config.Config{
		DatabaseURL:    "postgres://app@db:5432/x",
		Addr:           "127.0.0.1:9000",
		DBMaxConns:     7,
		LogLevel:       slog.LevelDebug,
		AuthSecret:     []byte("0123456789abcdef"),
		TokenTTL:       30 * time.Minute,
		RequestTimeout: 750 * time.Millisecond,
		DebugAddr:      "127.0.0.1:6060",
		MetricsAddr:    ":9100",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("from env (-want +got):\n%s", diff)
	}
	if got.UsesDevAuthSecret() {
		t.Error("UsesDevAuthSecret() = true with AUTH_SECRET set")
	}
}

func TestLoadFlagsOverrideEnv(t *testing.T) {
	vars := map[string]string{
		"DATABASE_URL":    "postgres://env@db/x",
		"ADDR":            ":1111",
		"DB_MAX_CONNS":    "not a number", // a flag override hides a bad env value
		"LOG_LEVEL":       "error",
		"AUTH_SECRET":     "env-secret-0123456789",
		"TOKEN_TTL":       "1h",
		"REQUEST_TIMEOUT": "forever",      // hidden by the flag too
		"DEBUG_ADDR":      "0.0.0.0:6060", // and a non-loopback admin address
		"METRICS_ADDR":    "9100",         // and a metrics address without a port
	}
	args := []string{
		"-database-url", "postgres://flag@db/x",
		"-addr", ":0",
		"-db-max-conns", "1000",
		"-log-level", "warn",
		"-auth-secret=flag-secret-0123456789",
		"-token-ttl", "90s",
		"-request-timeout", "25s",
		"-debug-addr", "[::1]:0",
		"-metrics-addr", "0.0.0.0:9100",
	}
	got, err := load(t, args, vars)
	if err != nil {
		t.Fatal(err)
	}
	want := config.Config{
		DatabaseURL:    "postgres://flag@db/x",
		Addr:           ":0",
		DBMaxConns:     1000,
		LogLevel:       slog.LevelWarn,
		AuthSecret:     []byte("flag-secret-0123456789"),
		TokenTTL:       90 * time.Second,
		RequestTimeout: 25 * time.Second,
		DebugAddr:      "[::1]:0",
		MetricsAddr:    "0.0.0.0:9100",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("flags over env (-want +got):\n%s", diff)
	}
}

func TestLoadBadValues(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		vars    map[string]string
		wantErr string // must appear in the error
	}{
		{"max conns zero env", nil, map[string]string{"DB_MAX_CONNS": "0"}, "DB_MAX_CONNS"},
		{"max conns too big flag", []string{"-db-max-conns", "1001"}, nil, "-db-max-conns"},
		{"max conns not a number", nil, map[string]string{"DB_MAX_CONNS": "lots"}, "DB_MAX_CONNS"},
		{"log level", nil, map[string]string{"LOG_LEVEL": "verbose"}, "LOG_LEVEL"},
		{"log level flag", []string{"-log-level", "trace"}, nil, "-log-level"},
		{"short secret", nil, map[string]string{"AUTH_SECRET": "short"}, "AUTH_SECRET"},
		{"short secret flag", []string{"-auth-secret", "0123456789abcde"}, nil, "-auth-secret"},
		{"ttl", nil, map[string]string{"TOKEN_TTL": "12"}, "TOKEN_TTL"},
		{"negative ttl", []string{"-token-ttl", "-1h"}, nil, "-token-ttl"},
		{"request timeout unit", nil, map[string]string{"REQUEST_TIMEOUT": "5"}, "REQUEST_TIMEOUT"},
		{"request timeout zero", []string{"-request-timeout", "0s"}, nil, "-request-timeout"},
		{"request timeout past the write timeout", nil, map[string]string{"REQUEST_TIMEOUT": "26s"}, "up to 25s"},
		{"addr", nil, map[string]string{"ADDR": "8081"}, "ADDR"},
		{"addr port", []string{"-addr", ":99999"}, nil, "-addr"},
		{"debug addr without port", nil, map[string]string{"DEBUG_ADDR": "127.0.0.1"}, "DEBUG_ADDR"},
		{"debug addr port", []string{"-debug-addr", "127.0.0.1:70000"}, nil, "-debug-addr"},
		{"debug addr on every interface", nil, map[string]string{"DEBUG_ADDR": ":6060"}, "DEBUG_ADDR"},
		{"debug addr unspecified", nil, map[string]string{"DEBUG_ADDR": "0.0.0.0:6060"}, "loopback"},
		{"debug addr public", []string{"-debug-addr", "192.0.2.7:6060"}, nil, "-debug-addr"},
		{"debug addr ipv6 public", nil, map[string]string{"DEBUG_ADDR": "[2001:db8::1]:6060"}, "DEBUG_ADDR"},
		{"debug addr host name", nil, map[string]string{"DEBUG_ADDR": "example.com:6060"}, "loopback"},
		{"metrics addr without port", nil, map[string]string{"METRICS_ADDR": "0.0.0.0"}, "METRICS_ADDR"},
		{"metrics addr empty port", []string{"-metrics-addr", "rest:"}, nil, "-metrics-addr"},
		{"metrics addr port", nil, map[string]string{"METRICS_ADDR": ":65536"}, "port must be a number"},
		{"metrics addr url", []string{"-metrics-addr", "http://rest:9100/metrics"}, nil, "host:port"},
		{"empty database url flag", []string{"-database-url", ""}, nil, "-database-url"},
		{"unknown flag", []string{"-nope"}, nil, "nope"},
		{"flag syntax", []string{"-db-max-conns"}, nil, "db-max-conns"},
		{"positional argument", []string{"extra"}, nil, "extra"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := load(t, tt.args, tt.vars)
			if err == nil {
				t.Fatalf("Load succeeded, want an error naming %s", tt.wantErr)
			}
			if !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %q does not name %s", err, tt.wantErr)
			}
		})
	}
}

// TestLoadDebugAddrLoopback: every loopback form is accepted as given.
func TestLoadDebugAddrLoopback(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:6060", "127.8.9.10:0", "[::1]:6060", "localhost:6060", "LocalHost:0"} {
		t.Run(addr, func(t *testing.T) {
			got, err := load(t, nil, map[string]string{"DEBUG_ADDR": addr})
			if err != nil {
				t.Fatal(err)
			}
			if got.DebugAddr != addr {
				t.Errorf("DebugAddr = %q, want %q", got.DebugAddr, addr)
			}
		})
	}
}

// TestLoadMetricsAddrAnyHost: the metrics address takes every host form,
// the empty host (every interface) and non-loopback ones included, as given;
// an empty flag turns off an address the environment set.
func TestLoadMetricsAddrAnyHost(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		vars map[string]string
		want string
	}{
		{"every interface", nil, map[string]string{"METRICS_ADDR": ":9100"}, ":9100"},
		{"unspecified ipv4", nil, map[string]string{"METRICS_ADDR": "0.0.0.0:9100"}, "0.0.0.0:9100"},
		{"public ipv6", nil, map[string]string{"METRICS_ADDR": "[2001:db8::1]:9100"}, "[2001:db8::1]:9100"},
		{"host name", []string{"-metrics-addr", "rest:9100"}, nil, "rest:9100"},
		{"loopback port 0", nil, map[string]string{"METRICS_ADDR": "127.0.0.1:0"}, "127.0.0.1:0"},
		{"empty flag over env", []string{"-metrics-addr", ""}, map[string]string{"METRICS_ADDR": ":9100"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := load(t, tc.args, tc.vars)
			if err != nil {
				t.Fatal(err)
			}
			if got.MetricsAddr != tc.want {
				t.Errorf("MetricsAddr = %q, want %q", got.MetricsAddr, tc.want)
			}
		})
	}
}

func TestLoadDoesNotEchoSecrets(t *testing.T) {
	const secret = "tiny"
	_, err := load(t, nil, map[string]string{"AUTH_SECRET": secret})
	if err == nil {
		t.Fatal("Load accepted a 4-byte secret")
	}
	if strings.Contains(err.Error(), secret) {
		t.Errorf("error %q shows the secret", err)
	}
}

func TestLoadHelp(t *testing.T) {
	var stderr bytes.Buffer
	_, err := config.Load("testapp", []string{"-h"}, env(nil), ":8081", &stderr)
	if !errors.Is(err, flag.ErrHelp) {
		t.Errorf("Load(-h) error = %v, want flag.ErrHelp", err)
	}
	for _, name := range []string{"DATABASE_URL", "ADDR", "DB_MAX_CONNS", "LOG_LEVEL", "AUTH_SECRET", "TOKEN_TTL", "REQUEST_TIMEOUT", "DEBUG_ADDR", "METRICS_ADDR"} {
		if !strings.Contains(stderr.String(), name) {
			t.Errorf("usage does not mention %s:\n%s", name, stderr.String())
		}
	}
}

// TestLoadOwnSettings checks that an app's own setting is read like the
// shared ones: listed by -h, the flag over the variable over the default,
// and an invalid value reported with where it came from.
func TestLoadOwnSettings(t *testing.T) {
	var got string
	own := config.Setting{Flag: "color", Env: "APP_COLOR", Default: "red", Usage: "the `color`",
		Set: func(s string) error {
			if s != "red" && s != "blue" {
				return errors.New("must be red or blue")
			}
			got = s
			return nil
		}}
	for _, tt := range []struct {
		name string
		args []string
		vars map[string]string
		want string
	}{
		{"default", nil, nil, "red"},
		{"environment", nil, map[string]string{"APP_COLOR": "blue"}, "blue"},
		{"flag wins", []string{"-color", "red"}, map[string]string{"APP_COLOR": "blue"}, "red"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got = ""
			if _, err := config.Load("testapp", tt.args, env(tt.vars), ":8081", io.Discard, own); err != nil || got != tt.want {
				t.Errorf("got %q, %v; want %q", got, err, tt.want)
			}
		})
	}
	_, err := config.Load("testapp", []string{"-color", "green"}, env(nil), ":8081", io.Discard, own)
	if err == nil || err.Error() != `config: -color "green": must be red or blue` {
		t.Errorf("error %v, want it to name -color", err)
	}
	var stderr bytes.Buffer
	config.Load("testapp", []string{"-h"}, env(nil), ":8081", &stderr, own)
	if !strings.Contains(stderr.String(), "APP_COLOR") {
		t.Errorf("usage does not mention APP_COLOR:\n%s", stderr.String())
	}
}

func TestLogger(t *testing.T) {
	c, err := load(t, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	logger := c.Logger(&buf)
	if logger.Enabled(context.Background(), slog.LevelDebug) {
		t.Error("debug enabled at the default level: request logging would run in benchmarks")
	}
	logger.Info("hello", "n", 1)
	if got := buf.String(); !strings.Contains(got, `"msg":"hello"`) || !strings.Contains(got, `"n":1`) {
		t.Errorf("log line = %q, want JSON with msg and n", got)
	}
}
