'use strict';

/** The value at a dotted path ("user.address.city") in data. */
function lookup(data, path) {
  return path.split('.').reduce((node, key) => node[key], data);
}

/**
 * Renders "Hello {{user.name}}" with data. A value that is missing renders as an empty
 * string, so a message is never held back by one absent field.
 */
function render(template, data) {
  return template.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (_, path) => {
    const value = lookup(data, path);
    return value === undefined || value === null ? '' : String(value);
  });
}

module.exports = { render, lookup };
