/**
 * The parts of Sentry's API answers the crash source reads (Sentry's API reference: "List a
 * Project's Issues" and "Retrieve the Latest Event for an Issue"; GlitchTip answers the same
 * shapes). Unknown fields are ignored; a field read here that is missing or of the wrong type
 * makes the answer unreadable (SentryUnavailableError), never a half-built group.
 */
import { z } from 'zod';

/** Sentry sends counts as strings ("1024"); GlitchTip as numbers. */
const Count = z.union([z.number(), z.string().regex(/^\d+$/)]).transform((v) => Number(v));

export const SentryIssueSchema = z.object({
  id: z.string(),
  shortId: z.string().nullish(),
  title: z.string(),
  culprit: z.string().nullish(),
  permalink: z.string().nullish(),
  count: Count,
  userCount: z.number().nullish(),
  firstSeen: z.string().nullish(),
  lastSeen: z.string().nullish(),
  level: z.string().nullish(),
  metadata: z.object({ type: z.string().nullish(), value: z.string().nullish() }).nullish(),
});
export type SentryIssue = z.infer<typeof SentryIssueSchema>;

export const SentryIssueListSchema = z.array(SentryIssueSchema);

export const SentryFrameSchema = z.object({
  filename: z.string().nullish(),
  absPath: z.string().nullish(),
  lineNo: z.number().nullish(),
  function: z.string().nullish(),
  inApp: z.boolean().nullish(),
});
export type SentryFrame = z.infer<typeof SentryFrameSchema>;

export const SentryExceptionValueSchema = z.object({
  type: z.string().nullish(),
  value: z.string().nullish(),
  stacktrace: z.object({ frames: z.array(SentryFrameSchema).nullish() }).nullish(),
});

/** An entry of an event; only those of type "exception" are read. */
export const SentryEntrySchema = z.object({ type: z.string(), data: z.unknown() });

export const SentryExceptionDataSchema = z.object({ values: z.array(SentryExceptionValueSchema).nullish() });

export const SentryEventSchema = z.object({
  eventID: z.string().nullish(),
  id: z.string().nullish(),
  entries: z.array(SentryEntrySchema).nullish(),
});
export type SentryEvent = z.infer<typeof SentryEventSchema>;
