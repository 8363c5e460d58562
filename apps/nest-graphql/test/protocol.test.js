import { describeProtocolRules } from '@crudbench/node-base/test-kit/protocol.js';
import { DRIVERS, starterOf } from './start.js';

for (const [name, driver] of DRIVERS) describeProtocolRules(name, { start: starterOf(driver), bodyPath: '/graphql' });
