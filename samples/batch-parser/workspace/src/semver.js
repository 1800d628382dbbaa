'use strict';

/** Parses "MAJOR.MINOR.PATCH" (an optional leading "v" is allowed). */
function parseVersion(text) {
  const s = String(text).trim().replace(/^v/, '');
  const [, major, minor, patch] = /^(\d+)\.(\d+)\.(\d+)$/.exec(s);
  return { major: Number(major), minor: Number(minor), patch: Number(patch) };
}

/** Negative when a < b, positive when a > b, 0 when equal. */
function compareVersions(a, b) {
  const x = parseVersion(a);
  const y = parseVersion(b);
  return x.major - y.major || x.minor - y.minor || x.patch - y.patch;
}

/** The highest of a list of versions. */
function maxVersion(list) {
  return list.reduce((best, v) => (best === undefined || compareVersions(v, best) > 0 ? v : best), undefined);
}

module.exports = { parseVersion, compareVersions, maxVersion };
