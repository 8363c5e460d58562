// The Go graphql app's contract, node-base's (test-kit/graphql-contract.js),
// kept by this app: reads, writes, refusals and outages.
import { describeGraphQLContract } from '@crudbench/node-base/test-kit/graphql-contract.js';
import { startApp } from './start.js';

describeGraphQLContract('Yoga', { startApp });
