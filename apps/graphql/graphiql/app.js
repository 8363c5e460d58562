// Starts GraphiQL against this server's /graphql endpoint. After a successful
// login mutation the page keeps the token for this browser tab and sends it as
// "Authorization: Bearer <token>" with every later request, unless the
// Headers tab sets an Authorization header of its own.
(function () {
  'use strict';

  var tokenKey = 'crudbench-graphql-token';

  var defaultQuery = [
    '# crudbench over GraphQL.',
    '#',
    '# 1. Run "Login" (the play button offers each operation): viewer/viewer',
    '#    may read, editor/editor may also write. This page then sends the',
    '#    token with every request.',
    '# 2. Run "Showcase": the person with every nested field.',
    '# The Docs button lists every query and mutation.',
    '',
    'mutation Login {',
    '  login(username: "editor", password: "editor") {',
    '    token',
    '    expiresAt',
    '    user { username role }',
    '  }',
    '}',
    '',
    'query Showcase {',
    '  person(id: 1) {',
    '    id employeeNo firstName lastName email phone department status hiredOn',
    '    version createdAt updatedAt',
    '    appointments {',
    '      id personId positionTitle department fte startsOn endsOn',
    '      stipends { id appointmentId payer { id code name kind } amountCents currency startsOn endsOn }',
    '      fundings { appointmentId payer { id code name kind } percent }',
    '    }',
    '  }',
    '}',
    ''
  ].join('\n');

  function hasAuthorization(headers) {
    return Object.keys(headers).some(function (name) {
      return name.toLowerCase() === 'authorization';
    });
  }

  function fetcher(params, options) {
    var extra = (options && options.headers) || {};
    var headers = {
      'Content-Type': 'application/json',
      'Accept': 'application/graphql-response+json, application/json'
    };
    var token = window.sessionStorage.getItem(tokenKey);
    if (token && !hasAuthorization(extra)) {
      headers.Authorization = 'Bearer ' + token;
    }
    Object.keys(extra).forEach(function (name) { headers[name] = extra[name]; });
    return fetch('/graphql', {
      method: 'POST',
      headers: headers,
      body: JSON.stringify(params),
      credentials: 'omit'
    }).then(function (response) {
      return response.json();
    }).then(function (body) {
      var login = body && body.data && body.data.login;
      if (login && login.token) {
        window.sessionStorage.setItem(tokenKey, login.token);
      }
      return body;
    });
  }

  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    fetcher: fetcher,
    defaultQuery: defaultQuery,
    defaultEditorToolsVisibility: false
  }));
})();
