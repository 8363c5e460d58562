package load_test

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	vegeta "github.com/tsenart/vegeta/v12/lib"
	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"crudbench/bench/grpcwire"
	"crudbench/bench/load"
)

// TestAttackGRPC drives a real gRPC server's health service through
// Options.Transport: the same schedule and window as an HTTP attack, every
// call a 200 whose bytes in are the answer's Protobuf bytes (SERVING is
// two).
func TestAttackGRPC(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	healthpb.RegisterHealthServer(srv, health.NewServer())
	go srv.Serve(ln)
	t.Cleanup(srv.Stop)

	wire := grpcwire.New(2)
	defer wire.Close()
	target := vegeta.Target{Method: http.MethodPost, URL: "grpc://" + ln.Addr().String() + "/grpc.health.v1.Health/Check"}
	var codes, bytesIn int
	out, err := load.Attack(context.Background(), vegeta.NewStaticTargeter(target), load.Options{
		Name: "grpc", Rate: 50, Warmup: 200 * time.Millisecond, Duration: time.Second, Timeout: 5 * time.Second,
		MaxConnections: 4, Transport: wire,
		Observe: func(r *vegeta.Result) {
			if r.Code == http.StatusOK {
				codes++
			}
			bytesIn += int(r.BytesIn)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if out.Sent != 60 || out.Requests != 50 || out.SuccessRatio != 1 || codes != 60 || bytesIn != 2*60 {
		t.Errorf("sent %d, measured %d, success %v, %d answers 200 with %d bytes; want 60, 50, 1, 60 with 120",
			out.Sent, out.Requests, out.SuccessRatio, codes, bytesIn)
	}
}
