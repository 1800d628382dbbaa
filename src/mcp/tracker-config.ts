/**
 * The `tracker` section of a server in the `--mcp` file: how a run whose tracker is
 * `mcp:SERVER` files an issue through one of the server's tools and finds its filings again
 * through a read-only one (the refile guard by cause, and the ladder's lookup by key).
 *
 * - `file`: the tool that files, and its arguments: a template whose `{title}`, `{body}`,
 *   `{cause}`, `{run}` and `{key}` are the filing's (lookup.ts `fill`). `{body}` ends with the
 *   hidden marker (the call's key, cause and run), which is how a filing is found again, so the
 *   template must send `{body}` somewhere the list reads back. Optional `number` and `url`: where
 *   the result's JSON holds the new issue's number and web address (without `number`, the issue
 *   is found in the list after filing).
 * - `list`: the read-only tool that lists the filings (sent `args` as they are); `items`: where
 *   the result's JSON holds the array of issues (absent: the result is the array); of each item,
 *   `text`: where its body is (a string, or an array of strings: the one with the marker),
 *   `title`, and optional `number`, `url`, `state` ("open"/"closed") and `createdAt`. An item
 *   without a number is numbered by its place among the filings listed (1: the first listed).
 */
import { z } from 'zod';

const path = z.string().min(1);

export const McpTrackerSchema = z.strictObject({
  file: z.strictObject({
    tool: z.string().min(1),
    args: z.record(z.string(), z.unknown()),
    number: path.optional(),
    url: path.optional(),
  }),
  list: z.strictObject({
    tool: z.string().min(1),
    args: z.record(z.string(), z.unknown()).default({}),
    items: path.optional(),
    text: path,
    title: path,
    number: path.optional(),
    url: path.optional(),
    state: path.optional(),
    createdAt: path.optional(),
  }),
});
export type McpTrackerConfig = z.infer<typeof McpTrackerSchema>;
