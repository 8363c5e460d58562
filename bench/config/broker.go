package config

import (
	"fmt"
	"slices"
	"strings"

	"crudbench/bench/broker"
	"crudbench/bench/scenario"
	"crudbench/bench/stack"
)

// checkBroker keeps the runner from starting amqp apps it has no broker
// for: no AMQP_URL (haveURL) and no local rabbitmq-server to start a
// throwaway node from. An amqp app named in -apps by its name (named,
// from parseApps) is then an error saying what to install; -apps all or a
// group leaves it out with a note saying the same, as it leaves out the
// Node.js apps without Node. Attached apps come with their broker.
func (c *Config) checkBroker(named map[string]string, haveURL bool) error {
	if haveURL {
		return nil
	}
	var keep, left []string
	var missing error
	for _, name := range c.Apps {
		row, _ := stack.FindBuiltin(name)
		if _, attached := c.Attached(name); attached || row.Kind != scenario.KindAMQP {
			keep = append(keep, name)
			continue
		}
		if missing == nil {
			if _, _, err := broker.FindServer(); err == nil {
				return nil
			} else {
				missing = err
			}
		}
		if named[name] == name {
			return fmt.Errorf("-apps: %s needs RabbitMQ: %w", name, missing)
		}
		left = append(left, name)
	}
	if len(left) == 0 {
		return nil
	}
	if len(keep) == 0 {
		return fmt.Errorf("-apps: no app left to measure: %s needs RabbitMQ: %w", strings.Join(left, ", "), missing)
	}
	c.Notes = append(c.Notes, fmt.Sprintf("-apps left out %s, which needs RabbitMQ: %v.", strings.Join(left, ", "), missing))
	c.Apps = slices.Clip(keep)
	return nil
}
