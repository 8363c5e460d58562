import { describeFrozenDatabase, graphqlReads } from '@crudbench/node-base/test-kit/frozen.js';
import { DATABASE_URL, startApp } from './start.js';

describeFrozenDatabase('yoga', { start: startApp, databaseUrl: DATABASE_URL, requests: graphqlReads });
