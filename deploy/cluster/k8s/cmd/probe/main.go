// Command probe is the workload of `cluster.sh selftest`, one static binary
// so that its image needs no base image:
//
//	probe serve ADDR   answer every HTTP request with "ok HOSTNAME"
//	probe get URL      fetch URL until it answers 200, print the body
//	probe index        print the Indexed Job's completion index
//	probe cpuset       print the CPUs this process may run on, then wait
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Getenv, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "probe:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string, getenv func(string) string, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: probe serve ADDR | get URL | index | cpuset")
	}
	switch args[0] {
	case "serve":
		if len(args) != 2 {
			return errors.New("usage: probe serve ADDR")
		}
		return serve(ctx, args[1])
	case "get":
		if len(args) != 2 {
			return errors.New("usage: probe get URL")
		}
		return get(ctx, args[1], stdout)
	case "index":
		index := getenv("JOB_COMPLETION_INDEX")
		if index == "" {
			return errors.New("JOB_COMPLETION_INDEX is not set")
		}
		fmt.Fprintf(stdout, "index %s\n", index)
		return nil
	case "cpuset":
		cpus, err := allowedCPUs()
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "cpus %s\n", cpus)
		<-ctx.Done()
		return nil
	}
	return fmt.Errorf("unknown command %q", args[0])
}

func serve(ctx context.Context, addr string) error {
	host, _ := os.Hostname()
	srv := &http.Server{
		Addr: addr,
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, "ok %s\n", host)
		}),
		ReadHeaderTimeout: 5 * time.Second,
	}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// get retries for a minute: the Service's endpoints and the DNS record may
// trail the pod that asks.
func get(ctx context.Context, url string, stdout io.Writer) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	client := &http.Client{Timeout: 5 * time.Second}
	var last error
	for {
		body, err := fetch(ctx, client, url)
		if err == nil {
			fmt.Fprint(stdout, body)
			return nil
		}
		last = err
		select {
		case <-ctx.Done():
			return fmt.Errorf("get %s: %w", url, last)
		case <-time.After(time.Second):
		}
	}
}

func fetch(ctx context.Context, client *http.Client, url string) (string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return "", err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("status %s", resp.Status)
	}
	return string(body), nil
}

func allowedCPUs() (string, error) {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return "", err
	}
	for line := range strings.SplitSeq(string(status), "\n") {
		if cpus, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(cpus), nil
		}
	}
	return "", errors.New("no Cpus_allowed_list in /proc/self/status")
}
