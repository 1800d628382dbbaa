/**
 * The name of a workspace's state folder under the extension's global storage: the
 * folder's base name (for a person looking in there) and a hash of its full path.
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';

export function workspaceStateName(workspace: string): string {
  const resolved = path.resolve(workspace);
  const base =
    path
      .basename(resolved)
      .replace(/[^A-Za-z0-9._-]/g, '_')
      .slice(0, 40) || 'root';
  return `${base}-${createHash('sha256').update(resolved).digest('hex').slice(0, 12)}`;
}
