// The web-rest data layer: fetch() against the REST contract
// (docs/contract.md, resources/openapi.yaml), one request per screen.
import { useEffect, useState } from 'react';
import { session, Unauthenticated } from '../session.js';

// DataProvider has nothing to provide: fetch() needs no client.
export function DataProvider({ children }) {
  return children;
}

async function api(path, init = {}) {
  const token = session.token();
  const res = await fetch(path, {
    ...init,
    headers: { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}), ...init.headers },
  });
  if (res.status === 401) throw new Unauthenticated();
  if (!res.ok) throw new Error(`${path} answered ${res.status}`);
  return res.json();
}

function useResource(path) {
  const [state, setState] = useState({ loading: true });
  useEffect(() => {
    let live = true;
    api(path).then(
      (data) => live && setState({ data }),
      (error) => live && setState({ error }),
    );
    return () => {
      live = false;
    };
  }, [path]);
  return state;
}

// useSignIn returns the sign-in: POST /api/login, the token kept.
export function useSignIn() {
  return async (username, password) => {
    const res = await fetch('/api/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (res.status === 401) throw new Error('Wrong username or password.');
    if (!res.ok) throw new Error(`The sign-in failed (${res.status}).`);
    session.save((await res.json()).token);
  };
}

// usePerson is the person detail with appointments, stipends and fundings.
export function usePerson(id) {
  const { loading, error, data } = useResource(`/api/persons/${encodeURIComponent(id)}`);
  return { loading, error, person: data };
}

// useVacancies is the first page of vacancies, as the site's list shows it.
export function useVacancies() {
  const { loading, error, data } = useResource('/api/vacancies');
  return { loading, error, vacancies: data?.items };
}
