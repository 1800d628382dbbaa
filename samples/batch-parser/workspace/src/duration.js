'use strict';

const UNITS = {
  ms: { ms: 1 },
  s: { ms: 1000 },
  m: { ms: 60 * 1000 },
  h: { ms: 60 * 60 * 1000 },
  d: { ms: 24 * 60 * 60 * 1000 },
};

/** Parses "1h30m", "45s", "250ms", "2d" (units may be combined) into milliseconds. */
function parseDuration(text) {
  const s = String(text).trim().toLowerCase();
  if (!/^(\d+(\.\d+)?[a-z]+)+$/.test(s)) throw new SyntaxError(`duration: cannot read "${text}"`);
  let total = 0;
  for (const [, amount, , unit] of s.matchAll(/(\d+(\.\d+)?)([a-z]+)/g)) {
    total += Number(amount) * UNITS[unit].ms;
  }
  return total;
}

/** The largest units first: 5400000 -> "1h30m". */
function formatDuration(ms) {
  if (ms === 0) return '0s';
  let rest = ms;
  let out = '';
  for (const unit of ['d', 'h', 'm', 's', 'ms']) {
    const n = Math.floor(rest / UNITS[unit].ms);
    if (n > 0) {
      out += `${n}${unit}`;
      rest -= n * UNITS[unit].ms;
    }
  }
  return out;
}

module.exports = { parseDuration, formatDuration };
