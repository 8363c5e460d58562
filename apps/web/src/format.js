// The site's formatting of values for people (apps/htmx/views.go), so that
// every front end shows the same text.

// label turns a stored enum value into words: "on_leave" -> "On leave".
// It takes GraphQL's upper case as REST's lower case.
export function label(v) {
  const s = String(v ?? '')
    .toLowerCase()
    .replaceAll('_', ' ');
  return s === '' ? '' : s[0].toUpperCase() + s.slice(1);
}

// money writes cents as units with thousands separators: 123456 -> "1,234.56".
export function money(cents) {
  const n = Number(cents);
  const sign = n < 0 ? '-' : '';
  const abs = Math.abs(n);
  const units = String(Math.trunc(abs / 100)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `${sign}${units}.${String(abs % 100).padStart(2, '0')}`;
}

// salary is money without a ".00".
export function salary(cents) {
  return money(cents).replace(/\.00$/, '');
}

// number writes a share or an FTE without trailing zeros.
export function number(f) {
  return String(f);
}

// humanTime writes an instant to the minute, in UTC.
export function humanTime(iso) {
  return new Date(iso).toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
}

// timestamp writes an instant for a datetime attribute, in UTC.
export function timestamp(iso) {
  return new Date(iso).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
