/** What a search asks for and what it finds, the same from ripgrep (ripgrep.ts) and from our walker (search-fallback.ts). */

export type CaseMode = 'smart' | 'insensitive' | 'sensitive';

export interface SearchQuery {
  pattern: string;
  /** A regular expression (true) or literal text (false). */
  regex: boolean;
  caseMode: CaseMode;
  /** Lines shown before and after each match. */
  context: number;
  glob?: string;
  /** The folder or file searched, workspace-relative ("." for the root). */
  startRel: string;
  /** Folders treated as outside the workspace (the run's state folder). */
  hidden: readonly string[];
}

export interface HitLine {
  n: number;
  text: string;
  /** A matching line (false: a context line). */
  match: boolean;
}

export interface FileHits {
  path: string;
  /** Its lines to show, in order: at most PER_FILE_LINES (the rest are counted in `matches`). */
  lines: HitLine[];
  /** How many lines matched in all. */
  matches: number;
}

export interface SearchFound {
  /** Files with a match, sorted by path. */
  files: FileHits[];
  /** How many files passed the glob and the ignore rules (undefined when not known). */
  searched?: number;
  /** Which engine ran, for the result's note. */
  engine: 'ripgrep' | 'fallback';
  /** Set when the search stopped after this many matching lines: the counts are lower bounds. */
  stoppedAt?: number;
}

/** Lines of one file kept for showing; nobody is shown more (the whole result is capped lower). */
export const PER_FILE_LINES = 400;
/** Files bigger than this are not searched (as ripgrep's --max-filesize). */
export const SEARCH_FILE_CAP = 1_000_000;
