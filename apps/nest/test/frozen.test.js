import { describeFrozenDatabase } from '@crudbench/node-base/test-kit/frozen.js';
import { DATABASE_URL, devToken, platforms } from './start.js';

for (const [name, start] of platforms) {
  describeFrozenDatabase(name, {
    start,
    databaseUrl: DATABASE_URL,
    requests: () => {
      // A token signed here: a login's bcrypt under a 1 s deadline is no read.
      const auth = { headers: { Authorization: `Bearer ${devToken()}` } };
      return [
        ['/api/persons/1', auth],
        ['/api/vacancies?status=open&limit=100', auth],
        ['/api/persons?limit=1000', auth],
      ];
    },
  });
}
