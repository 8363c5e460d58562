// The Go rest app's contract, node-base's (test-kit/rest-contract.js),
// kept by this app: reads, writes, refusals and outages.
import { describeRESTContract } from '@crudbench/node-base/test-kit/rest-contract.js';
import { startApp } from './start.js';

// Express's router is not strict: it serves /api/persons/ as /api/persons,
// and a path that is not percent-encoded fails its decoding with a 500;
// the Go app's answers to both are not this app's yet.
describeRESTContract('express', { startApp, strictPaths: false });
