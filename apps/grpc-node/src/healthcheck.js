// The container's health check, as the Go grpc app's -healthcheck: asks
// the app on its ADDR for grpc.health.v1.Health/Check of crudbench.v1.Staff
// (the readiness: SERVING while the database answers) and exits 0 only on
// SERVING. The image has no gRPC client, so node runs this script; it
// loads the health service's proto alone, not the app, to start fast.
import grpc from '@grpc/grpc-js';
import protoLoader from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';

/** TIMEOUT_MS is the Go app's healthcheckTimeout: under compose's 10 s timeout. */
const TIMEOUT_MS = 2500;
/** DEFAULT_ADDR is the app's own (server.js). */
const DEFAULT_ADDR = ':8091';
const STAFF = 'crudbench.v1.Staff';

/** target is the address to dial for the app's ADDR: loopback when it listens on every interface. */
function target(addr) {
  const m = /^(?:\[([^\]]*)\]|([^:]*)):(\d{1,5})$/.exec(addr);
  if (!m) throw new Error(`healthcheck: ADDR ${JSON.stringify(addr)} is not host:port`);
  const host = m[1] ?? m[2];
  if (host === '' || host === '0.0.0.0' || host === '::') return `127.0.0.1:${m[3]}`;
  return host.includes(':') ? `[${host}]:${m[3]}` : `${host}:${m[3]}`;
}

const addr = target(process.env.ADDR || DEFAULT_ADDR);
const { grpc: proto } = grpc.loadPackageDefinition(protoLoader.loadSync(protoPath, { enums: String }));
const client = new proto.health.v1.Health(addr, grpc.credentials.createInsecure());
client.check({ service: STAFF }, { deadline: Date.now() + TIMEOUT_MS }, (err, res) => {
  client.close();
  if (err) {
    console.error(`healthcheck: ${addr}: ${err.message}`);
    process.exit(1);
  }
  if (res.status !== 'SERVING') {
    console.error(`healthcheck: ${addr} is ${res.status}`);
    process.exit(1);
  }
  process.exit(0);
});
