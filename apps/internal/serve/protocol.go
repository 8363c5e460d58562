package serve

import (
	"net"
	"net/http"
)

// guardProtocol puts srv and ln under the HTTP/1 rules every app shares,
// before any handler runs: the header budget (limits.go). It returns the
// listener srv must serve.
func guardProtocol(srv *http.Server, ln net.Listener) net.Listener {
	srv.MaxHeaderBytes = MaxHeaderBytes
	srv.Handler = limitHeaders(srv.Handler)
	return ln
}
