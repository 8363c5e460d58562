// The web-graphql data layer: Apollo Client against the GraphQL schema
// (apps/graphql/graph), one query per screen with the fields the screen shows.
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { ApolloProvider, useQuery } from '@apollo/client/react';
import { SetContextLink } from '@apollo/client/link/context';
import { ErrorLink } from '@apollo/client/link/error';
import { CombinedGraphQLErrors } from '@apollo/client/errors';
import { session, Unauthenticated } from '../session.js';

const PERSON = gql`
  query PersonDetail($id: ID!) {
    person(id: $id) {
      id
      employeeNo
      firstName
      lastName
      email
      phone
      department
      status
      hiredOn
      version
      createdAt
      updatedAt
      appointments {
        id
        personId
        positionTitle
        department
        fte
        startsOn
        endsOn
        stipends {
          id
          appointmentId
          payer {
            id
            code
            name
            kind
          }
          amountCents
          currency
          startsOn
          endsOn
        }
        fundings {
          appointmentId
          payer {
            id
            code
            name
            kind
          }
          percent
        }
      }
    }
  }
`;

const VACANCIES = gql`
  query Vacancies {
    vacancies(first: 50) {
      nodes {
        id
        title
        department
        location
        employmentType
        salaryMinCents
        salaryMaxCents
        status
        opensOn
        closesOn
        description
        filledBy
        version
        createdAt
        updatedAt
      }
      pageInfo {
        endCursor
        hasNextPage
      }
    }
  }
`;

const LOGIN = gql`
  mutation Login($username: String!, $password: String!) {
    login(username: $username, password: $password) {
      token
      expiresAt
    }
  }
`;

function unauthenticated(error) {
  return CombinedGraphQLErrors.is(error) && error.errors.some((e) => e.extensions?.code === 'UNAUTHENTICATED');
}

const client = new ApolloClient({
  link: ApolloLink.from([
    new ErrorLink(({ error }) => {
      if (unauthenticated(error)) session.clear();
    }),
    new SetContextLink(({ headers }) => {
      const token = session.token();
      return { headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) } };
    }),
    new HttpLink({ uri: '/graphql' }),
  ]),
  cache: new InMemoryCache(),
});

// DataProvider gives the screens Apollo's client.
export function DataProvider({ children }) {
  return <ApolloProvider client={client}>{children}</ApolloProvider>;
}

function result({ loading, error }) {
  return { loading, error: error && unauthenticated(error) ? new Unauthenticated() : error };
}

// useSignIn returns the sign-in: the login mutation, the token kept.
export function useSignIn() {
  return async (username, password) => {
    try {
      const { data } = await client.mutate({ mutation: LOGIN, variables: { username, password } });
      session.save(data.login.token);
    } catch (error) {
      throw CombinedGraphQLErrors.is(error) ? new Error('Wrong username or password.') : error;
    }
  };
}

// usePerson is the person detail with appointments, stipends and fundings.
export function usePerson(id) {
  const q = useQuery(PERSON, { variables: { id: String(id) } });
  return { ...result(q), person: q.data?.person };
}

// useVacancies is the first page of vacancies, as the site's list shows it.
export function useVacancies() {
  const q = useQuery(VACANCIES);
  return { ...result(q), vacancies: q.data?.vacancies.nodes };
}
