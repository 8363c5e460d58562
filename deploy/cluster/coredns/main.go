// Command coredns is CoreDNS with only the plugins the local cluster's DNS
// needs: cluster.sh runs it on the host, serving the cluster.local zone from
// the API and refusing every other name, so no query leaves the machine.
package main

import (
	"github.com/coredns/coredns/core/dnsserver"
	"github.com/coredns/coredns/coremain"

	_ "github.com/coredns/coredns/plugin/bind"
	_ "github.com/coredns/coredns/plugin/cache"
	_ "github.com/coredns/coredns/plugin/errors"
	_ "github.com/coredns/coredns/plugin/health"
	_ "github.com/coredns/coredns/plugin/kubernetes"
	_ "github.com/coredns/coredns/plugin/log"
	_ "github.com/coredns/coredns/plugin/ready"
)

// The order CoreDNS's own plugin.cfg gives these plugins: a request passes
// them in this order whatever the Corefile says.
func init() {
	dnsserver.Directives = []string{
		"bind",
		"ready",
		"health",
		"errors",
		"log",
		"cache",
		"kubernetes",
	}
}

func main() {
	coremain.Run()
}
