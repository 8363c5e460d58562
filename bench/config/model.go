package config

import (
	"errors"
	"fmt"

	"crudbench/bench/results"
)

// readModel sets the load model from -model and -clients, after
// -profiles, -rate, -capacity and -shard have been read: the closed loop
// is a named mode of its own that none of them applies to.
func (c *Config) readModel(model string, clients int, set map[string]bool) error {
	switch model {
	case results.ModelOpen:
		if set["clients"] {
			return errors.New("-clients only applies with -model closed: the open model sends at the profiles' rates, with no fixed number of clients")
		}
		c.Model = results.ModelOpen
		return nil
	case results.ModelClosed:
	default:
		return fmt.Errorf("-model %q: want open (constant rate, the default) or closed (-clients N clients in a loop)", model)
	}
	c.Model, c.Clients = results.ModelClosed, clients
	switch {
	case !set["clients"]:
		return errors.New("-model closed needs -clients N: how many clients send requests, each its next when its last was answered")
	case clients < 1:
		return errors.New("-clients must be at least 1")
	case clients > c.MaxConnections:
		return fmt.Errorf("-clients %d is over -max-connections %d: each client needs a connection of its own", clients, c.MaxConnections)
	case c.Capacity.Search:
		return errors.New("-model closed does not go with -capacity: a capacity is the highest rate an app holds, and a closed loop sends no rate — its throughput at N clients is not a capacity")
	case c.Shard != nil:
		return errors.New("-model closed does not go with -shard: shards share one schedule of requests, and a closed loop has none")
	case set["rate"]:
		return errors.New("-rate does not apply to -model closed: the clients send as fast as the app answers")
	case len(c.Profiles) > 1:
		return fmt.Errorf("-model closed runs one profile, not %d: a closed loop sends no rate, so every profile would measure the same load (the profile only names the runs)", len(c.Profiles))
	}
	return nil
}

// ClosedLoop reports whether the run's load is a closed loop of Clients
// clients rather than the open model.
func (c Config) ClosedLoop() bool { return c.Model == results.ModelClosed }
