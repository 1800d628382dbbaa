'use strict';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Midnight (UTC) of the day `now` falls in. */
function startOfDay(now) {
  return new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS);
}

/**
 * Parses a due date as the user typed it: "today", "tomorrow" or YYYY-MM-DD.
 * Dates are kept at midnight UTC.
 */
function parseDue(text, now = new Date()) {
  const s = String(text).trim().toLowerCase();
  if (s === 'today') return startOfDay(now);
  if (s === 'tomorrow') return new Date(startOfDay(now).getTime() + DAY_MS);
  return new Date(`${s}T00:00:00Z`);
}

/** YYYY-MM-DD of a due date. */
function formatDue(date) {
  return date.toISOString().slice(0, 10);
}

/** True when the date is before the day `now` falls in. */
function isOverdue(date, now = new Date()) {
  return date.getTime() < startOfDay(now).getTime();
}

module.exports = { parseDue, formatDue, isOverdue, startOfDay };
