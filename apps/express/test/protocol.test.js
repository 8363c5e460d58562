import { describeProtocolRules } from '@crudbench/node-base/test-kit/protocol.js';
import { startApp } from './start.js';

describeProtocolRules('express', { start: startApp, bodyPath: '/api/login' });
