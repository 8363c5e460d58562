package dbtest

import (
	"fmt"
	"net"
	"net/url"
	"strconv"
	"sync"
	"testing"

	"github.com/jackc/pgx/v5/pgconn"
)

// Proxy is a TCP proxy in front of a test database that a test can cut and
// restore, or stall and resume, to check that an app answers 503 while the
// database is away or hangs, and recovers by itself when it returns (same
// address, no restart).
type Proxy struct {
	target  string // "unix:/path" or "tcp:host:port"
	addr    string // the proxy's fixed listen address
	mu      sync.Mutex
	ln      net.Listener
	conns   map[net.Conn]bool
	stopped bool
	// flowing is closed while bytes may pass; Stall replaces it with an
	// open channel that Resume closes.
	flowing chan struct{}
}

// NewProxy starts a proxy to the database at dbURL and returns it with the
// URL to connect through it. It stops when the test ends.
func NewProxy(t testing.TB, dbURL string) (*Proxy, string) {
	t.Helper()
	pc, err := pgconn.ParseConfig(dbURL)
	if err != nil {
		t.Fatalf("dbtest: proxy: %v", err)
	}
	p := &Proxy{conns: map[net.Conn]bool{}, flowing: make(chan struct{})}
	close(p.flowing)
	if len(pc.Host) > 0 && pc.Host[0] == '/' {
		p.target = fmt.Sprintf("unix:%s/.s.PGSQL.%d", pc.Host, pc.Port)
	} else {
		p.target = "tcp:" + net.JoinHostPort(pc.Host, strconv.Itoa(int(pc.Port)))
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("dbtest: proxy: %v", err)
	}
	p.addr = ln.Addr().String()
	p.serve(ln)
	t.Cleanup(func() {
		p.Resume()
		p.Down()
		p.mu.Lock()
		p.stopped = true
		p.mu.Unlock()
	})
	u := url.URL{
		Scheme:   "postgres",
		User:     url.UserPassword(pc.User, pc.Password),
		Host:     p.addr,
		Path:     "/" + pc.Database,
		RawQuery: "sslmode=disable",
	}
	return p, u.String()
}

// Down closes the listener and every open connection: the database is gone.
func (p *Proxy) Down() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln != nil {
		p.ln.Close()
		p.ln = nil
	}
	for c := range p.conns {
		c.Close()
	}
	clear(p.conns)
}

// Up listens again on the same address: the database is back.
func (p *Proxy) Up() error {
	p.mu.Lock()
	stopped := p.stopped || p.ln != nil
	p.mu.Unlock()
	if stopped {
		return nil
	}
	ln, err := net.Listen("tcp", p.addr)
	if err != nil {
		return fmt.Errorf("dbtest: proxy up: %w", err)
	}
	p.serve(ln)
	return nil
}

// Stall keeps the proxy up but lets nothing through, like a database whose
// processes are paused (SIGSTOP) or a network path that drops packets: new
// connections are accepted and get no answer, and open ones stop carrying
// bytes either way. Nothing is closed, so a client waits until its own
// deadline.
func (p *Proxy) Stall() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.flowing:
		p.flowing = make(chan struct{})
	default: // already stalled
	}
}

// Resume lets bytes through again, those held during the stall first; the
// connections that clients gave up meanwhile are gone.
func (p *Proxy) Resume() {
	p.mu.Lock()
	defer p.mu.Unlock()
	select {
	case <-p.flowing:
	default:
		close(p.flowing)
	}
}

// forward copies src to dst, holding each chunk while the proxy is stalled.
// It returns when either side fails or closed is closed.
func (p *Proxy) forward(dst, src net.Conn, closed <-chan struct{}) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			p.mu.Lock()
			flowing := p.flowing
			p.mu.Unlock()
			select {
			case <-flowing:
			case <-closed:
				return
			}
			if _, err := dst.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *Proxy) serve(ln net.Listener) {
	p.mu.Lock()
	p.ln = ln
	p.mu.Unlock()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.pipe(c)
		}
	}()
}

func (p *Proxy) pipe(c net.Conn) {
	network, address := "unix", p.target[len("unix:"):]
	if p.target[:4] == "tcp:" {
		network, address = "tcp", p.target[len("tcp:"):]
	}
	s, err := net.Dial(network, address)
	if err != nil {
		c.Close()
		return
	}
	if !p.track(c, s) {
		c.Close()
		s.Close()
		return
	}
	done := make(chan struct{}, 2)
	closed := make(chan struct{})
	go func() { p.forward(s, c, closed); done <- struct{}{} }()
	go func() { p.forward(c, s, closed); done <- struct{}{} }()
	<-done
	c.Close()
	s.Close()
	close(closed)
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.conns, s)
	p.mu.Unlock()
}

// track registers both ends unless the proxy went down meanwhile.
func (p *Proxy) track(c, s net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ln == nil {
		return false
	}
	p.conns[c], p.conns[s] = true, true
	return true
}
