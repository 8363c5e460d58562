// The SPA's screens, as the site has them (apps/htmx): sign-in, the person
// detail and the vacancy list, in the site's frame and markup, so that its
// style sheet applies and every front end shows the same text.
import { useEffect, useState } from 'react';
import { useSignIn, usePerson, useVacancies } from 'data-layer';
import { session, Unauthenticated } from './session.js';
import { label, money, number, humanTime, salary, timestamp } from './format.js';

function navigate(to) {
  history.pushState(null, '', to);
  dispatchEvent(new PopStateEvent('popstate'));
}

function usePath() {
  const [path, setPath] = useState(location.pathname + location.search);
  useEffect(() => {
    const onPop = () => setPath(location.pathname + location.search);
    addEventListener('popstate', onPop);
    return () => removeEventListener('popstate', onPop);
  }, []);
  return path;
}

function Link({ to, children, ...rest }) {
  const onClick = (e) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
    e.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}

function Frame({ section, children }) {
  const signedIn = session.token() !== null;
  const signOut = (e) => {
    e.preventDefault();
    session.clear();
    navigate('/login');
  };
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="site">
        <nav aria-label="Main">
          <Link className="brand" to="/vacancies">
            crudbench <span>staff register</span>
          </Link>
          {signedIn && (
            <Link to="/vacancies" aria-current={section === 'vacancies' ? 'page' : undefined}>
              Vacancies
            </Link>
          )}
        </nav>
        {signedIn && (
          <form className="session" onSubmit={signOut}>
            <button type="submit" className="link">
              Sign out
            </button>
          </form>
        )}
      </header>
      <main id="main">{children}</main>
      <footer className="site">crudbench · the same CRUD application as REST, GraphQL and the htmx site</footer>
    </>
  );
}

// Loading shows a screen's state until its data is there: a refused token
// sends the person to the sign-in, back here afterwards.
function Loading({ error }) {
  useEffect(() => {
    if (error instanceof Unauthenticated) {
      session.clear();
      navigate(`/login?next=${encodeURIComponent(location.pathname)}`);
    }
  }, [error]);
  if (error) return <p className="flash error">{error.message}</p>;
  return <p className="loading">Loading…</p>;
}

function SignIn() {
  const signIn = useSignIn();
  const [message, setMessage] = useState('');
  const onSubmit = async (e) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    try {
      await signIn(form.get('username'), form.get('password'));
      const next = new URLSearchParams(location.search).get('next');
      navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/vacancies');
    } catch (err) {
      setMessage(err.message);
    }
  };
  return (
    <Frame>
      <h1>Sign in</h1>
      {message && (
        <p className="flash error" role="alert">
          {message}
        </p>
      )}
      <form className="login" action="/login" method="post" onSubmit={onSubmit}>
        <label htmlFor="f-username">Username</label>
        <input id="f-username" name="username" autoComplete="username" required />
        <label htmlFor="f-password">Password</label>
        <input id="f-password" name="password" type="password" autoComplete="current-password" required />
        <button type="submit" className="primary">
          Sign in
        </button>
      </form>
    </Frame>
  );
}

function Appointment({ a }) {
  return (
    <section className="appointment" id={`appointment-${a.id}`} data-appointment-id={a.id} data-person-id={a.personId}>
      <h3>
        <span className="position-title">{a.positionTitle}</span>
      </h3>
      <p className="meta">
        <span className="department">{a.department}</span> · FTE <span className="fte">{number(a.fte)}</span> ·{' '}
        <span className="starts-on">{a.startsOn}</span> – <span className="ends-on">{a.endsOn ?? 'open-ended'}</span>
      </p>
      <div className="tables">
        <table className="stipends">
          <caption>Stipends</caption>
          <thead>
            <tr>
              <th>Payer</th>
              <th>Kind</th>
              <th className="num">Amount</th>
              <th>Currency</th>
              <th>From</th>
              <th>Until</th>
            </tr>
          </thead>
          <tbody>
            {a.stipends.map((s) => (
              <tr className="stipend" key={s.id} data-stipend-id={s.id} data-payer-id={s.payer.id} data-amount-cents={s.amountCents}>
                <td>
                  <span className="payer-name">{s.payer.name}</span> <span className="code">{s.payer.code}</span>
                </td>
                <td>{label(s.payer.kind)}</td>
                <td className="num">{money(s.amountCents)}</td>
                <td>{s.currency}</td>
                <td className="date">{s.startsOn}</td>
                <td className="date">{s.endsOn ?? ''}</td>
              </tr>
            ))}
            {a.stipends.length === 0 && (
              <tr>
                <td colSpan="6" className="empty">
                  No stipends.
                </td>
              </tr>
            )}
          </tbody>
        </table>
        <table className="fundings">
          <caption>Funding</caption>
          <thead>
            <tr>
              <th>Payer</th>
              <th>Kind</th>
              <th className="num">Share</th>
            </tr>
          </thead>
          <tbody>
            {a.fundings.map((f) => (
              <tr className="funding" key={f.payer.id} data-payer-id={f.payer.id}>
                <td>
                  <span className="payer-name">{f.payer.name}</span> <span className="code">{f.payer.code}</span>
                </td>
                <td>{label(f.payer.kind)}</td>
                <td className="num">{number(f.percent)} %</td>
              </tr>
            ))}
            {a.fundings.length === 0 && (
              <tr>
                <td colSpan="3" className="empty">
                  No funding.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function Person({ id }) {
  const { person: d, loading, error } = usePerson(id);
  useEffect(() => {
    if (d) document.title = `${d.firstName} ${d.lastName} · crudbench`;
  }, [d]);
  if (loading || error || !d) return <Frame section="persons">{<Loading error={error} />}</Frame>;
  const status = String(d.status).toLowerCase();
  return (
    <Frame section="persons">
      <nav className="crumbs" aria-label="Breadcrumb">
        Persons › <span>{`${d.firstName} ${d.lastName}`}</span>
      </nav>
      <div className="page-head">
        <h1 className="person-name">
          <span className="first-name">{d.firstName}</span> <span className="last-name">{d.lastName}</span>{' '}
          <span className={`badge ${status}`}>{label(status)}</span>
        </h1>
      </div>
      <dl className="record-fields person-fields" data-person-id={d.id}>
        <div>
          <dt>Employee no.</dt>
          <dd className="employee-no">{d.employeeNo}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd className="email">
            <a href={`mailto:${d.email}`}>{d.email}</a>
          </dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd className="phone">{d.phone}</dd>
        </div>
        <div>
          <dt>Department</dt>
          <dd className="department">{d.department}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd className="status" data-status={status}>
            {label(status)}
          </dd>
        </div>
        <div>
          <dt>Hired on</dt>
          <dd className="hired-on">{d.hiredOn}</dd>
        </div>
        <div>
          <dt>Record</dt>
          <dd className="meta">
            id <span className="id">{d.id}</span> · version <span className="version">{d.version}</span> · created{' '}
            <time className="created-at" dateTime={timestamp(d.createdAt)}>
              {humanTime(d.createdAt)}
            </time>{' '}
            · updated{' '}
            <time className="updated-at" dateTime={timestamp(d.updatedAt)}>
              {humanTime(d.updatedAt)}
            </time>
          </dd>
        </div>
      </dl>
      <h2>
        Appointments <span className="count">{d.appointments.length}</span>
      </h2>
      {d.appointments.map((a) => (
        <Appointment a={a} key={a.id} />
      ))}
      {/* The page scenarios' marker (bench/pages), as the site has it. */}
      {d.appointments.length === 0 ? (
        <p className="empty" elementtiming="appointments">
          No appointments.
        </p>
      ) : (
        <p className="list-end" elementtiming="appointments">
          {`${d.appointments.length} appointments`}
        </p>
      )}
    </Frame>
  );
}

function Vacancies() {
  const { vacancies, loading, error } = useVacancies();
  useEffect(() => {
    document.title = 'Vacancies · crudbench';
  }, []);
  if (loading || error || !vacancies) return <Frame section="vacancies">{<Loading error={error} />}</Frame>;
  return (
    <Frame section="vacancies">
      <div className="page-head">
        <h1>Vacancies</h1>
      </div>
      {vacancies.length === 0 ? (
        <p className="empty" elementtiming="vacancies">
          No vacancies.
        </p>
      ) : (
        <>
          <p className="count">{`${vacancies.length} ${vacancies.length === 1 ? 'vacancy' : 'vacancies'}`}</p>
          <table className="list">
            <thead>
              <tr>
                <th>Title</th>
                <th>Department</th>
                <th>Location</th>
                <th>Type</th>
                <th className="num">Salary</th>
                <th>Status</th>
                <th>Opens</th>
                <th>Closes</th>
              </tr>
            </thead>
            <tbody>
              {vacancies.map((v) => (
                <tr className="vacancy" key={v.id} data-vacancy-id={v.id} data-version={v.version}>
                  <td>
                    <span className="title">{v.title}</span>
                    {v.description && <p className="description">{v.description}</p>}
                  </td>
                  <td>{v.department}</td>
                  <td>{v.location}</td>
                  <td>{label(v.employmentType)}</td>
                  <td className="num">
                    {salary(v.salaryMinCents)} – {salary(v.salaryMaxCents)}
                  </td>
                  <td>
                    <span className={`badge ${String(v.status).toLowerCase()}`}>{label(v.status)}</span>
                  </td>
                  <td className="date">{v.opensOn}</td>
                  <td className="date">{v.closesOn ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {/* The page scenarios' marker (bench/pages), as the site has it. */}
          <p className="list-end" elementtiming="vacancies">
            {`${vacancies.length} shown`}
          </p>
        </>
      )}
    </Frame>
  );
}

// App picks the screen for the address; every screen but the sign-in needs
// a session.
export function App() {
  const path = usePath();
  const pathname = path.split('?')[0];
  useEffect(() => {
    if (pathname !== '/login' && session.token() === null) navigate(`/login?next=${encodeURIComponent(pathname)}`);
  }, [pathname]);
  if (pathname === '/login') return <SignIn />;
  if (session.token() === null) return null;
  const person = pathname.match(/^\/persons\/(\d+)$/);
  if (person) return <Person id={person[1]} key={person[1]} />;
  if (pathname === '/vacancies' || pathname === '/') return <Vacancies />;
  return (
    <Frame>
      <h1>Not found</h1>
      <p className="empty">No page at {pathname}.</p>
    </Frame>
  );
}
