'use strict';

/** Splits one CSV line into fields; a field may be quoted, with "" for a quote. */
function splitLine(line) {
  const fields = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === ',') {
      fields.push(field);
      field = '';
    } else {
      field += ch;
    }
  }
  fields.push(field);
  return fields;
}

/**
 * Parses CSV text whose first line is the header. Returns one object per row, keyed by
 * the header's names, with surrounding spaces trimmed. Accepts \n and \r\n line ends.
 */
function parseCsv(text) {
  const lines = text.split(/\r?\n/);
  const header = splitLine(lines[0]).map((h) => h.trim());
  return lines.slice(1).map((line) => {
    const fields = splitLine(line);
    const row = {};
    header.forEach((name, i) => {
      row[name] = fields[i].trim();
    });
    return row;
  });
}

module.exports = { parseCsv, splitLine };
