// The real-editor tests' stand-in for VS Code's GitHub Enterprise sign-in: the workbench's own
// authentication API (vscode.authentication.getSession) answered with the token of the GitHub
// stand-in, which the test gives the editor's server in E2E_GITHUB_TOKEN. It replaces the built-in
// vscode.github-authentication (disabled in that editor), whose sign-in needs github.com.
'use strict';
const vscode = require('vscode');

function activate(context) {
  const token = process.env.E2E_GITHUB_TOKEN;
  if (!token) throw new Error('E2E_GITHUB_TOKEN is not set: the test starts the editor with the GitHub stand-in token in it');
  const changed = new vscode.EventEmitter();
  const session = (scopes) => ({ id: 'standin', accessToken: token, account: { id: 'triage-bot', label: 'triage-bot' }, scopes: [...scopes] });
  context.subscriptions.push(
    changed,
    vscode.authentication.registerAuthenticationProvider(
      'github-enterprise',
      'GitHub Enterprise Server (test stand-in)',
      {
        onDidChangeSessions: changed.event,
        getSessions: async (scopes) => [session(scopes ?? [])],
        createSession: async (scopes) => session(scopes),
        removeSession: async () => undefined,
      },
      { supportsMultipleAccounts: false },
    ),
  );
}

module.exports = { activate, deactivate: () => undefined };
