/**
 * `triage tasks`: the catalog.
 */
import { flags } from '../flags';
import { tasks } from '../../triage/tasks/catalog';
import { EXIT } from '../exitcodes';

export async function cmdTasks(args: string[]): Promise<number> {
  const { values: v } = flags(args, { json: { type: 'boolean', default: false } });
  const list = tasks().map((t) => ({
    name: t.name,
    description: t.description,
    main: t.main === true,
    groups: t.groups.map((g) => g.cause),
    checks: t.checkNames.length,
  }));
  if (v.json) process.stdout.write(JSON.stringify({ tasks: list }) + '\n');
  else
    for (const t of list)
      process.stdout.write(`${t.name}${t.main ? '  (main: the demo)' : ''}\n  ${t.description}\n  crash groups: ${t.groups.join(', ')}; ${t.checks} checks\n`);
  return EXIT.done;
}
