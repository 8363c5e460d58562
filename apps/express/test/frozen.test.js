import { describeFrozenDatabase, restReads } from '@crudbench/node-base/test-kit/frozen.js';
import { DATABASE_URL, startApp } from './start.js';

describeFrozenDatabase('express', { start: startApp, databaseUrl: DATABASE_URL, requests: restReads });
