// Command amqptemp starts a throwaway RabbitMQ node (package
// bench/broker: its own folder, node name, user, vhost and loopback
// ports), prints the export AMQP_URL=… line to paste into the app's and
// amqpcall's terminals, and runs until Ctrl-C or SIGTERM, then stops the
// node and removes its folder. It needs rabbitmq-server installed.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"crudbench/bench/broker"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "amqptemp:", err)
		os.Exit(1)
	}
}

func run() error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	startCtx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	b, err := broker.Start(startCtx, broker.Options{})
	if err != nil {
		return err
	}
	fmt.Printf("export AMQP_URL='%s'\n", b.URL())
	fmt.Fprintf(os.Stderr, "amqptemp: node %s (PIDs %v), folder %s; Ctrl-C stops it\n", b.NodeName(), b.PIDs(), b.Dir())
	<-ctx.Done()
	return b.Stop()
}
