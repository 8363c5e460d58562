package serve

import (
	"bytes"
	"io"
	"net/http"
	"strconv"
	"sync"
)

// bodies holds the buffers Respond renders into, so that a response costs
// no allocation of its size.
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBody is the largest buffer kept for reuse: the very large bodies
// (the 1000-row lists) would otherwise hold their memory in the pool for
// good.
const maxPooledBody = 1 << 20

// Respond is how every app writes a response body, so that they all send
// their answers the same way and none is measured with a cheaper or dearer
// write than another: render writes the body into a pooled buffer, then the
// status goes out with Content-Type and Content-Length and the body in one
// write. When render fails nothing has been sent and Respond returns its
// error, so the caller can still answer a clean 500 instead of half a body.
func Respond(w http.ResponseWriter, status int, contentType string, render func(io.Writer) error) error {
	buf := bodies.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= maxPooledBody {
			bodies.Put(buf)
		}
	}()
	buf.Reset()
	if err := render(buf); err != nil {
		return err
	}
	h := w.Header()
	h.Set("Content-Type", contentType)
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	w.Write(buf.Bytes())
	return nil
}
