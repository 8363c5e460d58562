// The Go graphql app's contract, node-base's (test-kit/graphql-contract.js),
// kept by Apollo Server through its Next.js integration at /graphql.
import { describeGraphQLContract } from '@crudbench/node-base/test-kit/graphql-contract.js';
import { startApp } from './start.js';

describeGraphQLContract('next-graphql', { startApp });
