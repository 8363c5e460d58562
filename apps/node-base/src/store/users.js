import bcrypt from 'bcryptjs';
import { AppError, EUNAUTHORIZED } from '../errors.js';
import { query } from './pool.js';

const GET = 'SELECT id, username, password_hash, role FROM app_user WHERE username = $1';

// Comparing against a hash even for an unknown user keeps the answer's time
// from telling which usernames exist.
const dummyHash = bcrypt.hashSync('crudbench-no-such-user', 10);

/** userStore checks credentials against app_user. */
export function userStore(pool) {
  return {
    /** authenticate returns { id, username, role } or throws EUNAUTHORIZED. */
    async authenticate(username, password) {
      const bad = new AppError(EUNAUTHORIZED, 'invalid username or password');
      // bcrypt reads at most 72 bytes: a longer password would match its prefix.
      if (username.length > 100 || Buffer.byteLength(password) > 72) throw bad;
      const { rows } = await query(pool, { text: GET, values: [username] });
      if (rows.length === 0) {
        await bcrypt.compare(password, dummyHash);
        throw bad;
      }
      const user = rows[0];
      if (!(await bcrypt.compare(password, user.password_hash))) throw bad;
      return { id: user.id, username: user.username, role: user.role };
    },
  };
}
