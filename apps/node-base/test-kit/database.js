import pg from 'pg';

/**
 * databaseClient returns a node-postgres client, not yet connected, of
 * the database at databaseUrl: for an app's test to read rows and to hold
 * locks itself, beside the app under test, with node-base's own pg.
 */
export function databaseClient(databaseUrl) {
  return new pg.Client({ connectionString: databaseUrl });
}
