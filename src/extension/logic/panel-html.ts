/**
 * The Run panel's page: an empty shell the panel's script fills from the messages it gets.
 * A strict content security policy: nothing but the extension's own style sheets, font and one
 * script (by nonce); no inline handlers, no remote content.
 */
import { randomBytes } from 'node:crypto';

export interface PanelAssets {
  /** The webview's cspSource. */
  cspSource: string;
  script: string;
  styles: string[];
}

export function nonce(): string {
  return randomBytes(16)
    .toString('base64')
    .replace(/[^A-Za-z0-9]/g, '');
}

function attr(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

export function panelHtml(a: PanelAssets, title: string, n = nonce()): string {
  const csp = [`default-src 'none'`, `style-src ${a.cspSource}`, `font-src ${a.cspSource}`, `img-src ${a.cspSource} data:`, `script-src 'nonce-${n}'`].join(
    '; ',
  );
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="UTF-8">',
    `<meta http-equiv="Content-Security-Policy" content="${attr(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1.0">',
    ...a.styles.map((s) => `<link rel="stylesheet" href="${attr(s)}">`),
    `<title>${attr(title)}</title>`,
    '</head>',
    '<body>',
    '<main id="app" aria-live="polite"><p class="loading">Loading the run…</p></main>',
    `<script nonce="${attr(n)}" src="${attr(a.script)}"></script>`,
    '</body>',
    '</html>',
  ].join('\n');
}
