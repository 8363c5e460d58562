// node-base's HTTP rules (test-kit/protocol.js), held in front of Next by
// node-base's server (server.js), for a body read by a route handler of
// each API.
import { describeProtocolRules } from '@crudbench/node-base/test-kit/protocol.js';
import { startApp } from './start.js';

describeProtocolRules('next (REST)', { start: startApp, bodyPath: '/api/login' });
describeProtocolRules('next (GraphQL)', { start: startApp, bodyPath: '/graphql' });
describeProtocolRules('next (tRPC)', { start: startApp, bodyPath: '/trpc/auth.login' });
