// The session: the token the API's login issued, kept for the tab (as the
// site's cookie lasts for the browser's session).
const key = 'crudbench.token';

export const session = {
  token: () => sessionStorage.getItem(key),
  save: (token) => sessionStorage.setItem(key, token),
  clear: () => sessionStorage.removeItem(key),
};

// Unauthenticated is thrown by a data layer when the API refuses the token.
export class Unauthenticated extends Error {
  constructor() {
    super('sign in first');
  }
}
