import { describeProtocolRules } from '@crudbench/node-base/test-kit/protocol.js';
import { startApp } from './start.js';

describeProtocolRules('fastify', { start: startApp, bodyPath: '/api/login' });
