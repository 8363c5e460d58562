// The Go graphql app's contract, node-base's (test-kit/graphql-contract.js),
// kept by this app with each driver: reads, writes, refusals and outages.
import { describeGraphQLContract } from '@crudbench/node-base/test-kit/graphql-contract.js';
import { DRIVERS, starterOf } from './start.js';

for (const [name, driver] of DRIVERS) describeGraphQLContract(name, { startApp: starterOf(driver) });
