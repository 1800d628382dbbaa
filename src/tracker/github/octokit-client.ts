/**
 * GitHub's REST client (@octokit/rest). Only github-tracker.ts loads this module, on the first
 * GitHub call: the client with its map of every REST endpoint is about a megabyte, and a run
 * filing into another tracker (or the editor at startup) never needs it parsed. Bundled apart as
 * dist/octokit-client.js.
 */
export { Octokit } from '@octokit/rest';
