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
	// depth reads the request queue's depth during the loads.
	depth *broker.DepthReader
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
		// Its processes are named, so that what outlives a killed runner
		// can be told by pid.
		r.con.printf("RabbitMQ is up (beam.smp pid %d, its processes %v, node log %s).\n", node.PID(), node.PIDs(), node.LogFile())
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
	r.broker.depth = broker.NewDepthReader(url)
	r.undo(r.broker.depth.Close)
}

// nameBroker records the broker's product and version in the run's
// environment.
func (r *runner) nameBroker(run *results.Run) {
	if r.broker.url == "" {
		return
	}
	name, err := r.broker.depth.Server()
	if err != nil {
		name = "unknown (" + err.Error() + ")"
	}
	run.Environment.Broker = name
}

// watchBroker has every amqp app's loads watch its broker: the queue's
// depth always, the node's CPU and memory when it is the runner's.
func (r *runner) watchBroker() {
	if r.broker.url == "" {
		return
	}
	for _, u := range r.apps {
		if u.app == nil || u.app.Kind != scenario.KindAMQP {
			continue
		}
		if r.broker.node != nil {
			u.brokerPID = r.broker.node.PID()
		}
		u.queueDepth = func() (int, error) { return r.broker.depth.Depth(scenario.AMQPQueue) }
	}
	cpu := "its CPU and memory are not sampled (not the runner's node)"
	if r.broker.node != nil {
		cpu = "its CPU and memory are sampled as PostgreSQL's are, the Erlang VM (beam.smp) and its children (erl_child_setup, inet_gethost) as one tree, and per request of the amqp app's load"
	}
	r.note(fmt.Sprintf("amqp: the broker between the load and the app is measured on its own: %s; its request queue's depth is read every sample interval with a passive queue.declare over a connection of the runner's (one AMQP round trip the broker answers from the queue's count, where rabbitmqctl would start an Erlang VM per reading and the management plugin is not loaded): the requests ready in the queue, not the up to AMQP_PREFETCH the app holds unacknowledged.", cpu))
}
