// The Go rest app's contract, node-base's (test-kit/rest-contract.js),
// kept by this app: reads, writes, refusals and outages.
import { describeRESTContract } from '@crudbench/node-base/test-kit/rest-contract.js';
import { startApp } from './start.js';

describeRESTContract('express', { startApp });
