package runner

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"

	"crudbench/bench/amqpwire"
	"crudbench/bench/broker"
	"crudbench/bench/results"
	"crudbench/bench/scenario"
)

// runBroker is the RabbitMQ of a run that measures an amqp app: the one
// at AMQP_URL, the attached apps' broker, or a throwaway node the runner
// started (node), which it samples like PostgreSQL.
type runBroker struct {
	// url is the broker's AMQP URL; empty when the run has no amqp app.
	url  string
	node *broker.Broker
}

// startBroker reaches the broker of the amqp apps the runner starts, when
// there is one among them: the broker at AMQP_URL, or a throwaway node on
// the CPUs that are not the apps' (-cpus), as PostgreSQL is, stopped at
// tear-down (and, by its parent-death signal, when the runner dies).
func (r *runner) startBroker(ctx context.Context) error {
	if !r.cfg.Has(scenario.KindAMQP) {
		return nil
	}
	if os.Getenv("AMQP_URL") == "" {
		r.con.printf("Starting a throwaway RabbitMQ node…\n")
	}
	logFile, err := os.Create(filepath.Join(r.dir, results.LogsDir, "rabbitmq.log"))
	if err != nil {
		return err
	}
	r.undo(logFile.Close)
	url, node, err := broker.Use(ctx, "AMQP_URL", broker.Options{Log: logFile, CPUs: r.cfg.CPUs.Rest})
	if err != nil {
		return fmt.Errorf("broker for the amqp apps: %w", err)
	}
	if node != nil {
		r.undo(node.Stop)
		r.broker.node = node
		r.con.printf("RabbitMQ is up (beam.smp pid %d, node log %s).\n", node.PID(), node.LogFile())
	} else {
		r.note("The amqp apps used the broker at AMQP_URL, which is not the runner's: -cpus does not place it, and its CPU and memory are not sampled.")
	}
	r.useBroker(url)
	return nil
}

// attachBroker reaches the broker the attached amqp apps consume from
// (stack.ParseAttach lets through only one per run).
func (r *runner) attachBroker() {
	for _, name := range r.cfg.Apps {
		if a, ok := r.cfg.Attached(name); ok && a.Kind == scenario.KindAMQP {
			r.useBroker(a.URL)
			r.note("The attached amqp apps' broker is not the runner's: its CPU and memory are not sampled.")
			return
		}
	}
}

// useBroker sends the runner's own requests to amqp apps (validation,
// logins, cleanup) through the broker at url, over one connection; the
// loads have connections of their own (transport).
func (r *runner) useBroker(url string) {
	r.broker.url = url
	wire := amqpwire.New(url, 1)
	if tr, ok := r.client.Transport.(*http.Transport); ok {
		tr.RegisterProtocol(amqpwire.Scheme, wire)
	}
	r.undo(wire.Close)
}
