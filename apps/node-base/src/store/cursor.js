import { invalid } from '../errors.js';

// Cursors are the Go store's: base64url (unpadded) JSON with the same keys in
// the same order, so a cursor from one app pages on in any other.

export function encodeCursor(value) {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** badCursor is the refusal of an after parameter this app did not write. */
export const badCursor = () => invalid({ after: 'is not a cursor returned by this list' });

/** decodeCursor returns the cursor's object if it is one of kind. */
export function decodeCursor(s, kind) {
  const refused = badCursor();
  if (s.length > 1024 || !/^[A-Za-z0-9_-]*$/.test(s)) throw refused;
  let value;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(s, 'base64url')));
  } catch {
    throw refused;
  }
  if (value?.k !== kind || !Number.isSafeInteger(value.i)) throw refused;
  return value;
}
