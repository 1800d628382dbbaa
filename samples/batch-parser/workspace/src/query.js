'use strict';

function decode(s) {
  return decodeURIComponent(s.replace(/\+/g, ' '));
}

/**
 * Parses a query string ("a=1&b=two+words", with or without a leading "?").
 * A repeated key collects its values in an array.
 */
function parseQuery(text) {
  const out = {};
  const s = text.startsWith('?') ? text.slice(1) : text;
  for (const pair of s.split('&')) {
    if (pair === '') continue;
    const [rawKey, rawValue] = pair.split('=', 2);
    const key = decode(rawKey);
    const value = decode(rawValue);
    if (key in out) out[key] = [].concat(out[key], value);
    else out[key] = value;
  }
  return out;
}

/** The reverse of parseQuery, keys in insertion order. */
function formatQuery(obj) {
  return Object.entries(obj)
    .flatMap(([k, v]) => [].concat(v).map((x) => `${encodeURIComponent(k)}=${encodeURIComponent(x)}`))
    .join('&');
}

module.exports = { parseQuery, formatQuery };
