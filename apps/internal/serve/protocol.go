package serve

import (
	"net"
	"net/http"
)

// guardProtocol puts srv and ln under the HTTP/1 rules every app shares,
// before any handler runs: the header budget (limits.go) and request framing
// (framing.go). It returns the listener srv must serve.
//
// net/http's own answer to OPTIONS * is turned off so that such a request
// too passes checkFraming; the apps answer it as any unknown path.
func guardProtocol(srv *http.Server, ln net.Listener) net.Listener {
	srv.MaxHeaderBytes = MaxHeaderBytes
	srv.DisableGeneralOptionsHandler = true
	srv.ConnContext = withFramingConn
	srv.Handler = checkFraming(limitHeaders(srv.Handler))
	return framingListener{ln}
}
