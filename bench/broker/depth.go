package broker

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	amqp "github.com/rabbitmq/amqp091-go"
)

// DepthReader reads how many messages wait in a queue, over a connection
// of its own, with a passive queue.declare: the broker answers it from the
// queue's own count, one AMQP round trip, with no plugin. (The management
// plugin is not loaded on a throwaway node and may be absent on a broker
// at AMQP_URL; rabbitmqctl would start an Erlang VM for every reading,
// seconds of CPU on the machine being measured.) It is safe for
// concurrent use; Close closes its connection.
type DepthReader struct {
	url string

	mu   sync.Mutex
	conn *amqp.Connection
	ch   *amqp.Channel
}

// NewDepthReader returns a DepthReader of the broker at url; it connects
// on its first reading.
func NewDepthReader(url string) *DepthReader { return &DepthReader{url: url} }

// Depth is the number of messages ready in queue: published and not yet
// delivered to a consumer. A queue that does not exist is an error, and
// so is a lost connection, which the next reading dials again.
func (d *DepthReader) Depth(queue string) (int, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.ch == nil || d.ch.IsClosed() {
		if err := d.open(); err != nil {
			return 0, err
		}
	}
	q, err := d.ch.QueueDeclarePassive(queue, false, false, false, false, nil)
	if err != nil {
		// A failed declare closes the channel; the next reading opens
		// another.
		return 0, fmt.Errorf("broker: depth of %s: %w", queue, err)
	}
	return q.Messages, nil
}

// open (re)connects and opens the channel the readings use.
func (d *DepthReader) open() error {
	if d.conn == nil || d.conn.IsClosed() {
		conn, err := amqp.DialConfig(d.url, amqp.Config{Dial: amqp.DefaultDial(2 * time.Second)})
		if err != nil {
			return fmt.Errorf("broker: connect to read queue depth: %w", err)
		}
		d.conn = conn
	}
	ch, err := d.conn.Channel()
	if err != nil {
		return fmt.Errorf("broker: open a channel to read queue depth: %w", err)
	}
	d.ch = ch
	return nil
}

// Server is the broker's product and version as it announced them when
// the reader connected, e.g. "RabbitMQ 3.10.8".
func (d *DepthReader) Server() (string, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn == nil || d.conn.IsClosed() {
		if err := d.open(); err != nil {
			return "", err
		}
	}
	product, _ := d.conn.Properties["product"].(string)
	version, _ := d.conn.Properties["version"].(string)
	return strings.TrimSpace(product + " " + version), nil
}

// Close closes the reader's connection.
func (d *DepthReader) Close() error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.conn == nil {
		return nil
	}
	err := d.conn.Close()
	d.conn, d.ch = nil, nil
	if errors.Is(err, amqp.ErrClosed) {
		return nil
	}
	return err
}
