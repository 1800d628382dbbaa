// The Run panel makes links of http(s) URLs only: any other scheme a saved value holds is text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isWebUrl } from '../../src/webview/web-url';

test('http and https are links; javascript:, command:, file:, vscode:, data: and junk are not', () => {
  assert.equal(isWebUrl('https://github.com/o/r/pull/7'), true);
  assert.equal(isWebUrl('http://127.0.0.1:8000/organizations/acme/issues/1/'), true);
  for (const u of [
    'javascript:alert(1)',
    'command:workbench.action.openSettings',
    'file:///etc/passwd',
    'vscode://file/x',
    'data:text/html,x',
    '',
    'github.com/o/r',
  ])
    assert.equal(isWebUrl(u), false, u);
});
