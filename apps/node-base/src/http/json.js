// What JSON.parse does not tell: how a number was written.

const TOKEN = /\s*(?:("(?:[^"\\]|\\.)*")|-?\d+(\.\d+)?([eE][+-]?\d+)?|([{}[\]:,])|true|false|null)/y;

/**
 * notWrittenAsIntegers returns the names of the members of text, a JSON
 * object JSON.parse read, whose value is a number written with a fraction
 * or an exponent (1.0, 1e3): JSON.parse gives the same whole number as for
 * 1 or 1000, and the Go apps' decoder refuses them for an integer field.
 * Most bodies have no digit followed by ".", "e" or "E" anywhere, and are
 * not scanned.
 */
export function notWrittenAsIntegers(text) {
  const names = new Set();
  if (!/\d[.eE]/.test(text)) return names;
  let depth = 0;
  let previous = '';
  let key = '';
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    const [, string, fraction, exponent, punctuation] = m;
    if (punctuation === '{' || punctuation === '[') depth++;
    else if (punctuation === '}' || punctuation === ']') depth--;
    else if (depth === 1 && string !== undefined && (previous === '{' || previous === ',')) key = JSON.parse(string);
    else if (depth === 1 && previous === ':' && (fraction || exponent)) names.add(key);
    previous = punctuation ?? 'value';
  }
  return names;
}
