package serve

import "net/http"

// boundBodyRead makes the deadline of r's context bound the reading of its
// body too: without it a client sending its body a byte at a time holds a
// handler until the server's ReadTimeout, far past the request's deadline.
// A read past the deadline fails, the handler answers as for any unreadable
// body, and net/http closes the connection, whose stream is no longer in
// step.
//
// The connection's read deadline is the one to set. It ends with the body:
// net/http clears it when, the body read, it starts waiting for the
// client's next request, so that wait is not taken for the client hanging
// up. Where the deadline cannot be set (a ResponseWriter that does not
// reach the connection), the body stays bounded by ReadTimeout alone.
func boundBodyRead(w http.ResponseWriter, r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	if deadline, ok := r.Context().Deadline(); ok {
		http.NewResponseController(w).SetReadDeadline(deadline)
	}
}
