import { describeProtocolRules } from '@crudbench/node-base/test-kit/protocol.js';
import { platforms } from './start.js';

for (const [name, start] of platforms) describeProtocolRules(name, { start, bodyPath: '/api/login' });
