/**
 * Comparing file names as the file systems the workspace may sit on do: the agent's write
 * tools refuse protected paths (tools/protected-paths.ts), and the workspace walk skips
 * node_modules and .git (walk.ts), in any spelling such a file system takes for them.
 */

/**
 * A name as a case-insensitive file system compares it: without the code points HFS+
 * ignores, cut at ":" (an NTFS stream), trailing dots and spaces dropped (Windows), case folded.
 */
export function foldName(name: string): string {
  const noIgnorable = name.replace(/[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u206a-\u206f\ufeff]/g, '');
  const noStream = noIgnorable.split(':')[0];
  return noStream
    .replace(/[. ]+$/, '')
    .toUpperCase()
    .toLowerCase();
}
