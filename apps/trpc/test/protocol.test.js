import { describeProtocolRules } from '@crudbench/node-base/test-kit/protocol.js';
import { startApp } from './start.js';

describeProtocolRules('trpc', { start: startApp, bodyPath: '/trpc/auth.login' });
