/**
 * The Run panel's script (runs in the webview; bundled to dist/panel.js). It lays out the
 * transcript it is sent (see protocol.ts) with the editor's theme colours and codicons,
 * and sends the person's actions back as messages. It knows no tool by name: a call's blocks,
 * icon, whether it shows unfolded and whether it links a diff come with the call (its tool's
 * view, src/tools/view.ts). Every text goes in with textContent: the
 * model's words, file contents and issue bodies are never read as HTML.
 */
import type { FromPanel, PanelState, PanelView, ToPanel } from './protocol';
import type { Block, CallView, CauseRow, Entry, Transcript } from '../core/transcript';
import { scrollTopBelowSticky } from './scroll-target';
import { firstScroll, type FirstScroll } from './first-scroll';
import { questionOffer } from './question-bar';
import { isWebUrl } from './web-url';
import { LOST_TEXT, PING_EVERY_MS, heard, hostLost, pinged, type Liveness } from './liveness';

declare function acquireVsCodeApi(): { postMessage(m: FromPanel): void; getState(): PanelState | undefined; setState(s: PanelState): void };
const vscode = acquireVsCodeApi();
const app = document.getElementById('app')!;

type Child = Node | string | null | undefined | false;

function h(tag: string, attrs: Record<string, string | undefined> = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined) el.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== undefined && c !== false) el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  return el;
}

function icon(name: string, label?: string): HTMLElement {
  const el = h('span', { class: `codicon codicon-${name}`, 'aria-hidden': label ? undefined : 'true', role: label ? 'img' : undefined, 'aria-label': label });
  return el;
}

function button(text: string, iconName: string, onClick: () => void, o: { primary?: boolean; title?: string; id?: string } = {}): HTMLElement {
  const b = h('button', { class: o.primary ? 'primary' : 'secondary', type: 'button', title: o.title, 'data-id': o.id }, icon(iconName), ' ', text);
  b.addEventListener('click', onClick);
  return b;
}

function dollars(d: number): string {
  if (!Number.isFinite(d) || d <= 0) return '$0.00';
  return d < 0.01 ? `$${d.toFixed(4)}` : `$${d.toFixed(2)}`;
}

function tokens(n: number): string {
  if (n < 1000) return String(n);
  return n < 1_000_000 ? `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k` : `${(n / 1_000_000).toFixed(1)}M`;
}

/** <details> open states by key, kept across re-renders. */
const openKeys = new Set<string>();
const closedKeys = new Set<string>();

function details(key: string, summary: (Node | string)[], body: Node[], openByDefault = false): HTMLElement {
  const d = h('details', { 'data-key': key }) as HTMLDetailsElement;
  d.open = openKeys.has(key) || (openByDefault && !closedKeys.has(key));
  d.append(h('summary', {}, ...summary), ...body);
  d.addEventListener('toggle', () => {
    if (d.open) {
      openKeys.add(key);
      closedKeys.delete(key);
    } else {
      openKeys.delete(key);
      closedKeys.add(key);
    }
  });
  return d;
}

function diffBlock(text: string): HTMLElement {
  const pre = h('pre', { class: 'diff' });
  for (const line of text.replace(/\n$/, '').split('\n')) {
    const cls =
      line.startsWith('+++') || line.startsWith('---')
        ? 'meta'
        : line.startsWith('+')
          ? 'add'
          : line.startsWith('-')
            ? 'del'
            : line.startsWith('@@')
              ? 'hunk'
              : 'ctx';
    pre.append(h('span', { class: `line ${cls}` }, line), '\n');
  }
  return pre;
}

function block(b: Block): HTMLElement {
  switch (b.kind) {
    case 'text':
      return h('p', { class: 'text' }, b.text);
    case 'code':
      return h('div', { class: 'code' }, b.label ? h('div', { class: 'label' }, b.label) : null, h('pre', {}, b.text));
    case 'diff':
      return h('div', { class: 'code' }, diffBlock(b.text));
    case 'tests': {
      const el = h(
        'div',
        { class: `tests ${b.failed > 0 ? 'failing' : 'passing'}` },
        h('div', { class: 'counts' }, icon(b.failed > 0 ? 'error' : 'pass'), ` ${b.passed} passed, ${b.failed} failed`),
      );
      for (const f of b.failures)
        el.append(h('div', { class: 'failure' }, h('div', { class: 'name' }, icon('close'), ' ', f.name), f.detail ? h('pre', {}, f.detail) : null));
      return el;
    }
    case 'issue':
      return h(
        'div',
        { class: 'issue' },
        h('div', { class: 'issue-title' }, b.title),
        b.cause ? h('div', { class: 'cause' }, `cause: ${b.cause}`) : null,
        h('pre', { class: 'body' }, b.body),
      );
    case 'links': {
      const list = h('ul', { class: 'links' });
      for (const l of b.links) list.append(h('li', {}, icon('link-external'), ' ', `${l.label}: `, webAnchor(l.url, l.url)));
      return list;
    }
  }
}

/** Per cause: its Sentry issue, issue, branch, commit and pull request (links to http(s) pages only), then the ladder's decisions. */
function causesList(rows: CauseRow[]): HTMLElement {
  const list = h('ul', { class: 'causes' });
  for (const r of rows) {
    const parts: Child[] = [];
    const part = (...c: Child[]): void => {
      if (parts.length) parts.push(' · ');
      parts.push(...c);
    };
    if (r.sentry) part(icon('bug'), ' Sentry ', r.sentry.url ? webAnchor(r.sentry.url, r.sentry.label) : r.sentry.label, r.sentryComment ? ' (commented)' : '');
    if (r.issue) part(icon('issues'), ' ', r.issue.url ? webAnchor(r.issue.url, `#${r.issue.number}`) : `#${r.issue.number}`);
    if (r.branch) part(icon('git-branch'), ' ', h('code', {}, r.branch));
    if (r.commit) part(icon('git-commit'), ' ', h('code', { title: r.commit }, r.commit.slice(0, 12)));
    if (r.pullRequest)
      part(icon('git-pull-request'), ' ', r.pullRequest.url ? webAnchor(r.pullRequest.url, `PR #${r.pullRequest.number}`) : `PR #${r.pullRequest.number}`);
    const li = h('li', {}, h('strong', {}, r.cause), ': ', ...(parts.length ? parts : [h('span', { class: 'muted' }, 'nothing made yet')]));
    for (const l of r.ladder) li.append(h('div', { class: 'muted ladder' }, icon('history'), ' ', l));
    list.append(li);
  }
  return list;
}

/** An anchor for an http(s) URL (VS Code opens it in the browser); any other URL is plain text. */
function webAnchor(url: string, label: string): HTMLElement | string {
  return isWebUrl(url) ? h('a', { href: url }, label) : label;
}

const STATUS: Record<CallView['status'], { icon: string; label: string }> = {
  done: { icon: 'pass', label: 'done' },
  error: { icon: 'error', label: 'error' },
  denied: { icon: 'circle-slash', label: 'denied' },
  waiting: { icon: 'bell-dot', label: 'waiting for you' },
  unresolved: { icon: 'history', label: 'started, result not saved' },
  'not-run': { icon: 'circle-large-outline', label: 'not run yet' },
};

function callCard(c: CallView, view: PanelView, t: Transcript): HTMLElement {
  const st = STATUS[c.status];
  const pending = t.pending.find((p) => p.callId === c.callId);
  const card = h('section', { class: `call status-${c.status}`, id: `call-${c.callId}`, 'aria-label': `${c.title}: ${st.label}` });
  const head = h(
    'div',
    { class: 'call-head' },
    icon(c.icon ?? 'tools'),
    h('span', { class: 'call-title' }, c.title),
    h('span', { class: 'tool' }, c.tool),
    h('span', { class: `status s-${c.status}`, title: st.label }, icon(st.icon, st.label)),
  );
  card.append(head);
  const body: Node[] = c.args.map(block);
  if (c.result) body.push(h('div', { class: `result${c.result.isError ? ' error' : ''}` }, ...c.result.blocks.map(block)));
  const showArgs = c.unfolded === true || c.status === 'waiting';
  const bytes =
    c.result?.bytes !== undefined ? [h('span', { class: 'result-bytes', title: 'bytes this result added to the conversation' }, ` ${c.result.bytes} B`)] : [];
  if (body.length > 0)
    card.append(details(`call:${c.callId}`, [h('span', { class: 'result-summary' }, c.result ? c.result.summary : st.label), ...bytes], body, showArgs));
  else if (c.result) card.append(h('div', { class: 'result-summary plain' }, c.result.summary, ...bytes));
  for (const n of c.notes)
    card.append(
      h(
        'div',
        { class: `note tone-${n.tone}` },
        icon(n.tone === 'history' ? 'history' : n.tone === 'success' ? 'check' : n.tone === 'warning' ? 'warning' : 'info'),
        ' ',
        n.text,
      ),
    );
  if (pending) {
    const actions = h(
      'div',
      { class: 'actions question' },
      h('span', { class: 'ask' }, icon('bell-dot'), pending.kind === 'approval' ? ' Waiting for your approval' : ' Did this already happen?'),
    );
    const offer = questionOffer(view);
    if (offer.kind === 'elsewhere') actions.append(h('span', { class: 'muted elsewhere' }, ` · ${offer.text}`));
    else if (pending.kind === 'approval') {
      actions.append(
        button('Approve', 'check', () => vscode.postMessage({ type: 'answer', callId: c.callId, answer: 'approve' }), { primary: true, id: 'approve' }),
        button('Deny', 'close', () => vscode.postMessage({ type: 'answer', callId: c.callId, answer: 'deny' }), { id: 'deny' }),
      );
    } else actions.append(button('Answer…', 'comment', () => vscode.postMessage({ type: 'ask', callId: c.callId }), { primary: true }));
    card.append(actions);
  }
  if (c.path && view.files[c.path] && c.writesPath) {
    const link = h(
      'button',
      { class: 'link', type: 'button', title: `The diff of ${c.path} against the file before the run` },
      icon('diff'),
      ' diff against before the run',
    );
    link.addEventListener('click', () => vscode.postMessage({ type: 'diff', path: c.path! }));
    card.append(h('div', { class: 'links' }, link));
  }
  return card;
}

function entry(e: Entry, view: PanelView): HTMLElement {
  const t = view.transcript;
  switch (e.kind) {
    case 'prompt':
      return h('section', { class: 'prompt' }, details('prompt', [icon('account'), ' Task given to the model'], [h('pre', {}, e.text)]));
    case 'message':
      return h(
        'section',
        { class: 'message' },
        details(`msg:${e.text.length}:${e.text.slice(0, 40)}`, [icon('mail'), ' Told the model'], [h('pre', {}, e.text)], true),
      );
    case 'turn': {
      const usage = e.usage
        ? h(
            'span',
            { class: 'usage', title: `${e.usage.inputTokens} input and ${e.usage.outputTokens} output tokens` },
            `${tokens(e.usage.inputTokens)} in · ${tokens(e.usage.outputTokens)} out · ${dollars(e.usage.dollars)}`,
          )
        : null;
      return h(
        'section',
        { class: 'turn' },
        h('div', { class: 'turn-head' }, icon('sparkle'), h('span', { class: 'turn-n' }, `Turn ${e.turn}`), usage),
        e.text ? h('p', { class: 'said' }, e.text) : null,
      );
    }
    case 'call':
      return callCard(e.call, view, t);
    case 'history':
      return h(
        'section',
        { class: `history tone-${e.tone}`, role: 'note' },
        h('div', { class: 'history-title' }, icon(e.tone === 'error' ? 'error' : e.tone === 'warning' ? 'discard' : 'debug-restart'), ' ', e.title),
        ...e.lines.map((l) => h('div', { class: 'history-line' }, l)),
      );
    case 'answer':
      return h('section', { class: 'answer' }, h('div', { class: 'answer-head' }, icon('check-all'), ' Final answer'), h('pre', {}, e.text || '(empty)'));
  }
}

function header(view: PanelView): HTMLElement {
  const t = view.transcript;
  const status = view.active ? (view.doing ?? t.status) : view.locked ? 'open in another window' : t.status;
  const waitingForYou = t.pending.length > 0;
  const stateCls = t.phase === 'done' ? 'done' : waitingForYou ? 'waiting' : view.active ? 'active' : 'stopped';
  const pillIcon = stateCls === 'active' ? icon('sync') : stateCls === 'waiting' ? icon('bell-dot') : null;
  const buttons: HTMLElement[] = [];
  if (view.active)
    buttons.push(
      button('Cancel', 'debug-stop', () => vscode.postMessage({ type: 'run', command: 'cancel' }), {
        title: 'Stop the run; it saves where it stopped and can be resumed',
      }),
    );
  else if (t.phase !== 'done' && !view.locked)
    buttons.push(button('Resume', 'debug-continue', () => vscode.postMessage({ type: 'run', command: 'resume' }), { primary: true }));
  if (t.files.length > 0) {
    buttons.push(
      button('Review Changes', 'diff-multiple', () => vscode.postMessage({ type: 'run', command: 'review' }), {
        title: 'Every file the run wrote, against the file before the run',
      }),
    );
    if (!view.active)
      buttons.push(
        button("Undo Run's Changes", 'discard', () => vscode.postMessage({ type: 'run', command: 'undo' }), {
          title: 'Put every file back as it was before the run (asks first)',
        }),
      );
  }
  buttons.push(button('Checkpoint', 'json', () => vscode.postMessage({ type: 'run', command: 'checkpoint' }), { title: "The run's saved state as JSON" }));
  const stats = [
    `${t.turns} ${t.turns === 1 ? 'turn' : 'turns'}`,
    `${t.restarts} ${t.restarts === 1 ? 'restart' : 'restarts'}`,
    `${tokens(t.usage.inputTokens)} in · ${tokens(t.usage.outputTokens)} out`,
    dollars(t.usage.dollars),
    `${t.provider}/${t.model}`,
  ];
  // Shown only in a short panel (panel.css), where the run ID and counts fold away.
  const metaToggle = h(
    'button',
    { class: 'link meta-toggle', type: 'button', 'aria-expanded': String(showMeta), title: 'Show or hide the run ID and its counts' },
    icon(showMeta ? 'chevron-up' : 'chevron-down'),
    ' details',
  );
  metaToggle.addEventListener('click', () => {
    showMeta = !showMeta;
    const hd = metaToggle.closest('header');
    hd?.classList.toggle('show-meta', showMeta);
    metaToggle.setAttribute('aria-expanded', String(showMeta));
    metaToggle
      .querySelector('.codicon')
      ?.classList.replace(showMeta ? 'codicon-chevron-down' : 'codicon-chevron-up', showMeta ? 'codicon-chevron-up' : 'codicon-chevron-down');
  });
  return h(
    'header',
    { class: showMeta ? 'show-meta' : undefined },
    h('div', { class: 'title-row' }, h('h1', {}, t.task), h('span', { class: `pill p-${stateCls}` }, pillIcon, pillIcon ? ' ' : '', status), metaToggle),
    h('div', { class: 'run-id' }, `run ${t.runId}`),
    h('div', { class: 'stats' }, ...stats.map((s) => h('span', {}, s))),
    h('div', { class: 'toolbar' }, ...buttons),
    questions(view) ?? '',
  );
}

/** The run ID and counts unfolded in a short panel (kept across re-renders). */
let showMeta = false;

/** Scrolls the call's card to just below the sticky header (the question bar is in it). */
function showCall(callId: string): void {
  const card = document.getElementById(`call-${callId}`);
  if (!card) return;
  const sticky = document.querySelector('header')?.getBoundingClientRect().bottom ?? 0;
  window.scrollTo({ top: scrollTopBelowSticky(card.getBoundingClientRect().top, window.scrollY, sticky) });
}

function questions(view: PanelView): HTMLElement | null {
  const t = view.transcript;
  if (t.pending.length === 0) return null;
  const box = h('section', { class: 'questions', role: 'alert' });
  for (const p of t.pending) {
    const row = h(
      'div',
      { class: 'waiting-row' },
      icon('bell-dot'),
      h('span', { title: p.title }, p.kind === 'approval' ? ` Approve "${p.title}"?` : ` Did "${p.title}" already happen?`),
    );
    const offer = questionOffer(view);
    if (offer.kind === 'elsewhere') row.append(h('span', { class: 'muted elsewhere' }, offer.text));
    else if (p.kind === 'approval') {
      row.append(
        button('Approve', 'check', () => vscode.postMessage({ type: 'answer', callId: p.callId, answer: 'approve' }), { primary: true, id: 'approve-top' }),
        button('Deny', 'close', () => vscode.postMessage({ type: 'answer', callId: p.callId, answer: 'deny' })),
      );
    } else row.append(button('Answer…', 'comment', () => vscode.postMessage({ type: 'ask', callId: p.callId }), { primary: true }));
    const jump = h('button', { class: 'link', type: 'button' }, 'show the call');
    jump.addEventListener('click', () => showCall(p.callId));
    row.append(jump);
    box.append(row);
  }
  return box;
}

const FILE_WORDS: Record<string, string> = {
  'as-written': '',
  changed: 'changed after the agent wrote it',
  missing: 'deleted after the agent wrote it',
  undone: 'undone',
};

function summary(view: PanelView): HTMLElement {
  const t = view.transcript;
  const out = h('aside', { class: 'summary' });
  if (t.files.length > 0) {
    const list = h('ul', { class: 'files' });
    for (const f of t.files) {
      const st = view.files[f.path];
      const b = h(
        'button',
        { class: 'link', type: 'button', title: `The diff of ${f.path} against the file before the run` },
        icon(f.change === 'created' ? 'new-file' : 'diff'),
        ' ',
        f.label ?? f.path,
      );
      b.addEventListener('click', () => vscode.postMessage({ type: 'diff', path: f.path }));
      list.append(
        h(
          'li',
          {},
          b,
          h('span', { class: 'muted' }, ` ${f.change}`),
          st && FILE_WORDS[st] ? h('span', { class: `file-status ${st}` }, ` · ${FILE_WORDS[st]}`) : null,
        ),
      );
    }
    out.append(h('h2', {}, 'Files written'), list);
  }
  if (t.issues.length > 0) {
    const list = h('ul', { class: 'issues' });
    for (const i of t.issues) {
      const label = `#${i.number} ${i.title}`;
      list.append(h('li', {}, icon('issues'), ' ', i.url ? webAnchor(i.url, label) : label));
    }
    out.append(h('h2', {}, 'Issues filed'), list);
  }
  if (t.causes?.length) out.append(h('h2', {}, 'Per cause'), causesList(t.causes));
  if (t.checks) {
    const ok = t.checks.failed.length === 0;
    out.append(
      h('h2', {}, 'Checks'),
      h('div', { class: `checks ${ok ? 'passing' : 'failing'}` }, icon(ok ? 'pass' : 'error'), ` ${t.checks.passed}/${t.checks.total} passed`),
    );
    for (const f of t.checks.failed)
      out.append(h('div', { class: 'failure' }, h('div', { class: 'name' }, icon('close'), ' ', f.name), h('pre', {}, f.detail)));
  }
  for (const n of t.notes) out.append(h('p', { class: 'note tone-info' }, icon('info'), ' ', n));
  return out;
}

function render(view: PanelView): void {
  const atBottom = window.innerHeight + window.scrollY >= document.body.scrollHeight - 40;
  const y = window.scrollY;
  const t = view.transcript;
  const list = h('div', { class: 'transcript' });
  for (const e of t.entries) list.append(entry(e, view));
  if (view.active && view.doing) list.append(h('div', { class: 'now' }, icon('loading', undefined), ' ', view.doing, '…'));
  app.replaceChildren(header(view), list, summary(view));
  if (first) {
    // First render (a new panel, or one shown again / restored after a reload): see first-scroll.ts.
    first = false;
    const place = firstScroll({
      restored: view.restored === true,
      savedY: vscode.getState()?.scrollY,
      pendingCallId: t.pending[0]?.callId,
      active: view.active,
    });
    // Kept until the person scrolls: the layout still moves (the icon font loads, the run's next view, a resize).
    if (place.to === 'question' || place.to === 'end') pinned = place;
    goTo(place);
  } else if (pinned && stillAsked(pinned, t)) goTo(pinned);
  else window.scrollTo(0, view.active && atBottom ? document.body.scrollHeight : y);
  runId = t.runId;
  remember();
}

/** Where the panel opened, while the person has not scrolled yet (then it is theirs). */
let pinned: FirstScroll | undefined;

/** A pinned question stays pinned while it is asked; once answered the panel follows the run as usual. */
function stillAsked(place: FirstScroll, t: Transcript): boolean {
  if (place.to !== 'question') return true;
  const asked = t.pending.some((p) => p.callId === place.callId);
  if (!asked) pinned = undefined;
  return asked;
}

function goTo(place: FirstScroll): void {
  if (place.to === 'question') showCall(place.callId);
  else window.scrollTo(0, place.to === 'saved' ? place.y : place.to === 'end' ? document.body.scrollHeight : 0);
}

for (const ev of ['wheel', 'keydown', 'mousedown', 'touchstart'])
  window.addEventListener(ev, () => {
    pinned = undefined;
  });
const repin = (): void => {
  if (pinned) goTo(pinned);
};
window.addEventListener('resize', repin);
void document.fonts?.ready.then(repin);

let first = true;
let runId = vscode.getState()?.runId ?? '';
let timer: number | undefined;
function remember(): void {
  if (runId) vscode.setState({ runId, scrollY: window.scrollY });
}
window.addEventListener('scroll', () => {
  if (timer === undefined) timer = window.setTimeout(() => ((timer = undefined), remember()), 200);
});

// The extension host behind this panel may be gone (a crash): ping it, and say so when it does not answer.
let liveness: Liveness = {};
let lost = false;
window.setInterval(() => {
  if (document.visibilityState !== 'visible') return;
  if (hostLost(liveness, Date.now())) {
    if (!lost) showLost();
    return;
  }
  liveness = pinged(liveness, Date.now());
  vscode.postMessage({ type: 'ping' });
}, PING_EVERY_MS);

function showLost(): void {
  lost = true;
  document.querySelectorAll('button').forEach((b) => (b.disabled = true));
  document.querySelectorAll('.pill').forEach((p) => p.replaceChildren(icon('debug-disconnect'), ' disconnected'));
  document.querySelector('.questions')?.remove();
  document.querySelector('.now')?.remove();
  app.prepend(h('p', { class: 'lost', role: 'alert' }, icon('debug-disconnect'), ' ', LOST_TEXT));
}

window.addEventListener('message', (ev: MessageEvent<ToPanel>) => {
  const m = ev.data;
  liveness = heard();
  if (lost) {
    lost = false;
    document.querySelector('.lost')?.remove();
  }
  if (m.type === 'view') render(m.view);
  else if (m.type === 'gone') app.replaceChildren(h('p', { class: 'gone' }, icon('warning'), ' ', m.message));
});
vscode.postMessage({ type: 'ready' });
