/**
 * pytest in a virtual environment (Debian's python3-venv; pytest from the system's Python, as PyPI
 * cannot be reached from these machines: the venv sees the system's packages): the user's
 * checkout has its `.venv`, each cause's worktree runs pytest with it and the worktree first on
 * the import path; the crash a KeyError of a SKU not in stock.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ecosystemFlowTest, type Ecosystem } from './flow';

/** A Python that has pytest (scripts/apt-install.sh makes sure one does: pyenv's here, else Debian's with python3-pytest). */
const PYTHON =
  ['python3', '/usr/bin/python3'].find((py) => spawnSync(py, ['-c', 'import pytest'], { stdio: 'ignore' }).status === 0) ??
  (fs.existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3');

/** The developer's `.venv`; without pip, which would install nothing here (PyPI is out of reach) and costs 5 s a venv to set up (ensurepip). */
function venv(dir: string): void {
  const r = spawnSync(PYTHON, ['-m', 'venv', '--system-site-packages', '--without-pip', '.venv'], { cwd: dir, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`python3 -m venv in ${dir}: ${r.stderr} (scripts/setup-test-deps.sh installs python3-venv and python3-pytest)`);
}

export const PYTEST_VENV: Ecosystem = {
  name: 'pytest-venv',
  appRoot: '/srv/inventory',
  install: venv,
  suite: ['.venv/bin/python', '-m', 'pytest', '-q', '-p', 'no:cacheprovider'],
  env: { PYTHONDONTWRITEBYTECODE: '1' },
  causes: [
    {
      cause: 'available-key-error',
      crash: { command: [path.join('.venv', 'bin', 'python'), '-m', 'inventory.cli', 'SKU-1', 'SKU-9'], language: 'python' },
      events: 431,
      test: {
        file: 'tests/test_unknown_sku.py',
        content: `from inventory.stock import available


def test_a_sku_not_in_stock_has_none_available():
    assert available({"A": {"on_hand": 5, "reserved": 2}}, "B") == 0
`,
      },
      fix: {
        file: 'inventory/stock.py',
        what: 'a SKU not in stock',
        content: `"""What can still be sold of each SKU."""


def available(stock, sku):
    """Units of \`sku\` on hand and not reserved (none for a SKU not in stock)."""
    item = stock.get(sku)
    if item is None:
        return 0
    return item["on_hand"] - item["reserved"]
`,
      },
    },
  ],
};

ecosystemFlowTest(PYTEST_VENV);
