package stack

import (
	"context"
	"fmt"
	"net/url"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// health asks a grpc app's standard health service whether it serves:
// the grpc kind's /readyz (docs/contract.md).
type health struct {
	conn   *grpc.ClientConn
	client healthpb.HealthClient
}

// newHealth returns the health client of the grpc app at rawURL
// (grpc://host:port); it connects on the first Serving.
func newHealth(rawURL string) (*health, error) {
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return nil, fmt.Errorf("health of %q: not a grpc://host:port address", rawURL)
	}
	cc, err := grpc.NewClient("passthrough:///"+u.Host, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, fmt.Errorf("health of %s: %w", rawURL, err)
	}
	return &health{conn: cc, client: healthpb.NewHealthClient(cc)}, nil
}

// readyService is the service whose health is the app's readiness: its
// database answers (docs/contract.md). Service "" is the server's
// liveness, which says nothing of the database.
const readyService = "crudbench.v1.Staff"

// Serving reports whether Check of readyService answers SERVING within a
// second.
func (h *health) Serving(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	resp, err := h.client.Check(ctx, &healthpb.HealthCheckRequest{Service: readyService})
	return err == nil && resp.GetStatus() == healthpb.HealthCheckResponse_SERVING
}

// Close closes its connection.
func (h *health) Close() error { return h.conn.Close() }
