// The Go rest app's contract, node-base's (test-kit/rest-contract.js),
// kept by the route handlers under /api/.
import { describeRESTContract } from '@crudbench/node-base/test-kit/rest-contract.js';
import { startApp } from './start.js';

describeRESTContract('next-rest', { startApp });
