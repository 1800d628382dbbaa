/** How a bundled task is written down (catalog.ts turns it into a TaskSpec with absolute paths). */

export interface GroupDefinition {
  /** The cause slug: the crash folder's name and the cause. */
  cause: string;
  /** One line: what goes wrong. */
  summary: string;
  /** The file the fix belongs in (workspace-relative). */
  file: string;
}

export interface TaskDefinition {
  name: string;
  description: string;
  main?: boolean;
  /** The task prompt's first paragraph; the steps are shared (prompts.ts). */
  framing: string;
  groups: GroupDefinition[];
}
