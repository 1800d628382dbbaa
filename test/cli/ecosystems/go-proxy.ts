/**
 * A Go module proxy in a folder (GOPROXY=file://...), written here from a module's source under
 * test/fixtures/ecosystem-deps/: what the Go proxy would serve (@v/list, .info, .mod and the zip
 * with every file under module@version/). proxy.golang.org cannot be reached from these
 * machines; `go mod download` from this fills the module cache as it would.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export function writeGoProxy(root: string, module: string, version: string, source: string): void {
  const at = path.join(root, ...module.split('/'), '@v');
  fs.mkdirSync(at, { recursive: true });
  fs.writeFileSync(path.join(at, 'list'), `${version}\n`);
  fs.writeFileSync(path.join(at, `${version}.info`), JSON.stringify({ Version: version, Time: '2026-11-01T00:00:00Z' }));
  fs.copyFileSync(path.join(source, 'go.mod'), path.join(at, `${version}.mod`));
  const files = fs.readdirSync(source, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  const entries = files.map((e) => [
    path.join(e.parentPath, e.name),
    `${module}@${version}/${path.relative(source, path.join(e.parentPath, e.name)).split(path.sep).join('/')}`,
  ]);
  const py = 'import json,sys,zipfile\nz=zipfile.ZipFile(sys.argv[1],"w")\nfor src,name in json.loads(sys.argv[2]): z.write(src,name)\nz.close()';
  const r = spawnSync('python3', ['-c', py, path.join(at, `${version}.zip`), JSON.stringify(entries)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`writing the Go proxy's zip of ${module}@${version}: ${r.stderr}`);
}
