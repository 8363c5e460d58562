import { describeProtocolRules } from '@crudbench/node-base/test-kit/protocol.js';
import { startApp } from './start.js';

describeProtocolRules('mercurius', { start: startApp, bodyPath: '/graphql' });
