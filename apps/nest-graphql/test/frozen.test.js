import { describeFrozenDatabase } from '@crudbench/node-base/test-kit/frozen.js';
import { DATABASE_URL, DRIVERS, devToken, starterOf } from './start.js';

// The runner's reads (docs/contract.md): a person in four statements, one
// list each.
const READS = [
  '{ person(id: 1) { id firstName appointments { id stipends { id payer { code } } fundings { percent payer { code } } } } }',
  '{ vacancies(status: OPEN, first: 100) { nodes { id title } } }',
  '{ persons(first: 1000) { nodes { id firstName lastName } } }',
];

for (const [name, driver] of DRIVERS) {
  describeFrozenDatabase(name, {
    start: starterOf(driver),
    databaseUrl: DATABASE_URL,
    requests: () => {
      // A token signed here: a login's bcrypt under a 1 s deadline is no read.
      const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${devToken()}` };
      return READS.map((query) => ['/graphql', { method: 'POST', headers, body: JSON.stringify({ query }) }]);
    },
  });
}
