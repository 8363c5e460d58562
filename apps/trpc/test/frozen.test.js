import { describeFrozenDatabase } from '@crudbench/node-base/test-kit/frozen.js';
import { DATABASE_URL, devToken, startApp } from './start.js';

describeFrozenDatabase('trpc', {
  start: startApp,
  databaseUrl: DATABASE_URL,
  requests: () => {
    // A token signed here: a login's bcrypt under a 1 s deadline is no read.
    const auth = { headers: { Authorization: `Bearer ${devToken()}` } };
    const q = (input) => `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return [
      [`/trpc/person.byId${q({ id: 1 })}`, auth],
      [`/trpc/vacancy.list${q({ status: 'open', limit: 100 })}`, auth],
      [`/trpc/person.list${q({ limit: 1000 })}`, auth],
    ];
  },
});
