package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"testing"
	"time"

	"golang.org/x/net/http2"
	"golang.org/x/net/http2/hpack"
	"google.golang.org/protobuf/proto"
)

// h2Conn is a client that speaks HTTP/2 frame by frame (h2c with prior
// knowledge, as gRPC's plaintext does), for the requests grpc-go's client
// would not send: half a message, a header block over the server's limit,
// more streams than the server allows.
type h2Conn struct {
	t    testing.TB
	conn net.Conn
	read *http2.Framer

	mu    sync.Mutex // guards the writing framer and its encoder
	write *http2.Framer
	enc   *hpack.Encoder
	block bytes.Buffer

	// settings are the values the server's first SETTINGS frame carried.
	settings map[http2.SettingID]uint32
}

// h2End is how a stream ended: the trailers' grpc-status, a reset, or the
// connection going.
type h2End struct {
	status string        // grpc-status of the trailers ("" when none came)
	reset  http2.ErrCode // the RST_STREAM's code, when the server reset it
	gone   string        // "GOAWAY" or the read error, when the connection went
}

// dialH2 connects to addr, sends the preface and empty SETTINGS and reads
// the server's SETTINGS.
func dialH2(t testing.TB, addr string) *h2Conn {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c := &h2Conn{t: t, conn: conn, read: http2.NewFramer(io.Discard, conn), write: http2.NewFramer(conn, nil)}
	c.read.ReadMetaHeaders = hpack.NewDecoder(4096, nil)
	c.enc = hpack.NewEncoder(&c.block)
	if _, err := io.WriteString(conn, http2.ClientPreface); err != nil {
		t.Fatal(err)
	}
	c.writeFrame(func(w *http2.Framer) error { return w.WriteSettings() })
	for c.settings == nil {
		f, err := c.next(10 * time.Second)
		if err != nil {
			t.Fatalf("waiting for the server's SETTINGS: %v", err)
		}
		if s, ok := f.(*http2.SettingsFrame); ok && !s.IsAck() {
			c.settings = map[http2.SettingID]uint32{}
			s.ForeachSetting(func(s http2.Setting) error {
				c.settings[s.ID] = s.Val
				return nil
			})
		}
	}
	return c
}

// next reads the next frame, waiting at most wait, and acknowledges
// SETTINGS and PING as a client must.
func (c *h2Conn) next(wait time.Duration) (http2.Frame, error) {
	c.conn.SetReadDeadline(time.Now().Add(wait))
	f, err := c.read.ReadFrame()
	if err != nil {
		return nil, err
	}
	switch f := f.(type) {
	case *http2.SettingsFrame:
		if !f.IsAck() {
			c.writeFrame(func(w *http2.Framer) error { return w.WriteSettingsAck() })
		}
	case *http2.PingFrame:
		if !f.IsAck() {
			c.writeFrame(func(w *http2.Framer) error { return w.WritePing(true, f.Data) })
		}
	}
	return f, nil
}

// writeFrame writes one frame, or a header block; a write error after the
// server hung up is for the reader to see.
func (c *h2Conn) writeFrame(write func(w *http2.Framer) error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
	write(c.write)
}

// open starts stream id calling method, with extra header fields (name,
// value pairs) after gRPC's own, and no body yet.
func (c *h2Conn) open(id uint32, method string, extra ...string) {
	fields := []string{
		":method", "POST", ":scheme", "http", ":path", method, ":authority", "localhost",
		"content-type", "application/grpc", "te", "trailers",
	}
	fields = append(fields, extra...)
	c.writeFrame(func(w *http2.Framer) error {
		c.block.Reset()
		for i := 0; i < len(fields); i += 2 {
			c.enc.WriteField(hpack.HeaderField{Name: fields[i], Value: fields[i+1]})
		}
		// The block in pieces of the default frame size: HEADERS, then
		// CONTINUATION frames.
		block, first := c.block.Bytes(), true
		for first || len(block) > 0 {
			n := min(len(block), 16<<10)
			piece, end := block[:n], n == len(block)
			block = block[n:]
			var err error
			if first {
				err = w.WriteHeaders(http2.HeadersFrameParam{StreamID: id, BlockFragment: piece, EndHeaders: end})
				first = false
			} else {
				err = w.WriteContinuation(id, end, piece)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
}

// send writes p as a DATA frame of stream id, ending the stream's request
// when end is set.
func (c *h2Conn) send(id uint32, p []byte, end bool) {
	c.writeFrame(func(w *http2.Framer) error { return w.WriteData(id, end, p) })
}

// call makes a whole unary call of method with msg on stream id.
func (c *h2Conn) call(id uint32, method string, msg proto.Message, extra ...string) {
	c.open(id, method, extra...)
	c.send(id, grpcMessage(c.t, msg), true)
}

// trickle sends p on stream id a byte every interval, without ending the
// request, until the test ends or a write fails.
func (c *h2Conn) trickle(id uint32, p []byte, interval time.Duration) {
	stop := make(chan struct{})
	c.t.Cleanup(func() { close(stop) })
	go func() {
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for _, b := range p {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			c.mu.Lock()
			c.conn.SetWriteDeadline(time.Now().Add(10 * time.Second))
			err := c.write.WriteData(id, false, []byte{b})
			c.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
}

// waitEnd reads frames until stream id ends or the connection goes,
// failing the test when neither happens within wait.
func (c *h2Conn) waitEnd(id uint32, wait time.Duration) h2End {
	c.t.Helper()
	deadline := time.Now().Add(wait)
	for {
		f, err := c.next(time.Until(deadline))
		if errors.Is(err, os.ErrDeadlineExceeded) {
			c.t.Fatalf("stream %d still open after %s", id, wait)
		}
		if err != nil {
			return h2End{gone: err.Error()}
		}
		switch f := f.(type) {
		case *http2.MetaHeadersFrame:
			if f.StreamID == id && f.StreamEnded() {
				return h2End{status: headerValue(f, "grpc-status")}
			}
		case *http2.RSTStreamFrame:
			if f.StreamID == id {
				return h2End{reset: f.ErrCode}
			}
		case *http2.GoAwayFrame:
			return h2End{gone: "GOAWAY"}
		}
	}
}

// headerValue is the value of the field name in f, "" when f lacks it.
func headerValue(f *http2.MetaHeadersFrame, name string) string {
	for _, hf := range f.RegularFields() {
		if hf.Name == name {
			return hf.Value
		}
	}
	return ""
}

// grpcMessage frames msg as gRPC does on the wire: an uncompressed flag,
// the length, the Protobuf bytes.
func grpcMessage(t testing.TB, msg proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(msg)
	if err != nil {
		t.Fatal(err)
	}
	return append(binary.BigEndian.AppendUint32([]byte{0}, uint32(len(b))), b...)
}
