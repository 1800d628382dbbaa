/**
 * A minimal fake of the `vscode` module, enough for the extension's activate() to run in plain
 * Node: real little classes for what the extension constructs or extends (Uri, EventEmitter,
 * TreeItem, ...), a few recorded calls (the notifications), and for anything else a tolerant
 * Proxy that returns no-op functions and objects. It decides nothing; it only lets activation run.
 */
/* eslint-disable @typescript-eslint/no-explicit-any -- it stands in for the whole untyped `vscode` module */
import * as path from 'node:path';

type AnyFn = (...args: unknown[]) => unknown;

/** Something that answers every property with another such thing, callable and constructible. Never a thenable. */
export function tolerant(name: string, overrides: Record<string | symbol, unknown> = {}): any {
  const store = new Map<string | symbol, unknown>(Object.entries(overrides));
  for (const s of Object.getOwnPropertySymbols(overrides)) store.set(s, overrides[s]);
  const target = function () {} as unknown as AnyFn;
  return new Proxy(target, {
    get(_t, prop) {
      if (store.has(prop)) return store.get(prop);
      if (prop === 'then') return undefined;
      if (prop === Symbol.toPrimitive) return () => `[fake ${name}]`;
      if (prop === Symbol.iterator) return function* () {};
      if (prop === 'toString' || prop === 'toJSON') return () => `[fake ${name}]`;
      if (prop === 'dispose') return () => undefined;
      const v = tolerant(`${name}.${String(prop)}`);
      store.set(prop, v);
      return v;
    },
    set(_t, prop, value) {
      store.set(prop, value);
      return true;
    },
    has: () => true,
    apply: () => tolerant(`${name}()`),
    construct: () => tolerant(`new ${name}`),
  });
}

export class Uri {
  constructor(
    readonly scheme: string,
    readonly authority: string,
    readonly path: string,
    readonly query = '',
    readonly fragment = '',
  ) {}
  get fsPath(): string {
    return this.path;
  }
  static file(p: string): Uri {
    return new Uri('file', '', path.resolve(p));
  }
  static parse(s: string): Uri {
    const m = /^([a-z][\w+.-]*):(?:\/\/([^/]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/i.exec(s);
    return m ? new Uri(m[1], m[2] ?? '', m[3] ?? '', m[4] ?? '', m[5] ?? '') : new Uri('file', '', s);
  }
  static from(c: { scheme: string; authority?: string; path?: string; query?: string; fragment?: string }): Uri {
    return new Uri(c.scheme, c.authority ?? '', c.path ?? '', c.query ?? '', c.fragment ?? '');
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri(base.scheme, base.authority, path.posix.join(base.path, ...parts), base.query, base.fragment);
  }
  with(c: Partial<{ scheme: string; authority: string; path: string; query: string; fragment: string }>): Uri {
    return new Uri(c.scheme ?? this.scheme, c.authority ?? this.authority, c.path ?? this.path, c.query ?? this.query, c.fragment ?? this.fragment);
  }
  toString(): string {
    return `${this.scheme}://${this.authority}${this.path}${this.query ? `?${this.query}` : ''}${this.fragment ? `#${this.fragment}` : ''}`;
  }
}

export class Disposable {
  constructor(private readonly f: () => void = () => undefined) {}
  static from(...ds: Array<{ dispose(): unknown }>): Disposable {
    return new Disposable(() => ds.forEach((d) => d.dispose()));
  }
  dispose(): void {
    this.f();
  }
}

export class EventEmitter<T> {
  private listeners = new Set<(e: T) => unknown>();
  readonly event = (l: (e: T) => unknown): Disposable => {
    this.listeners.add(l);
    return new Disposable(() => this.listeners.delete(l));
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners.clear();
  }
}

class Bag {
  constructor(...args: unknown[]) {
    Object.assign(this, { args });
  }
}

export class TreeItem extends Bag {
  constructor(
    public label?: unknown,
    public collapsibleState?: number,
  ) {
    super(label, collapsibleState);
  }
}

export class ThemeIcon extends Bag {
  static readonly File = new ThemeIcon('file');
  static readonly Folder = new ThemeIcon('folder');
  constructor(
    readonly id: string,
    readonly color?: unknown,
  ) {
    super(id, color);
  }
}

export class CancellationTokenSource {
  private readonly emitter = new EventEmitter<void>();
  readonly token = { isCancellationRequested: false, onCancellationRequested: this.emitter.event };
  cancel(): void {
    this.token.isCancellationRequested = true;
    this.emitter.fire();
  }
  dispose(): void {
    this.emitter.dispose();
  }
}

export interface Shown {
  kind: 'information' | 'warning' | 'error';
  message: string;
  at: number;
}

/**
 * The fake module, for a workspace folder and the extension's settings (durableTriage.*; others
 * read as their defaults). Notifications are pushed onto `shown` (and answered with nothing),
 * output-channel lines onto `logs`.
 */
export function fakeVscode(workspace: string, settings: Record<string, unknown>, shown: Shown[], onShown?: (s: Shown) => void, logs: string[] = []): any {
  const logger =
    (level: string) =>
    (...args: unknown[]) =>
      void logs.push(`${level}: ${args.map(String).join(' ')}`);
  const channel = () =>
    tolerant('outputChannel', {
      trace: logger('trace'),
      debug: logger('debug'),
      info: logger('info'),
      warn: logger('warn'),
      error: logger('error'),
      appendLine: logger('line'),
      append: logger('text'),
    });
  const notify =
    (kind: Shown['kind']) =>
    async (message: string): Promise<undefined> => {
      const s = { kind, message: String(message), at: performance.now() };
      shown.push(s);
      onShown?.(s);
      return undefined;
    };
  const configuration = tolerant('configuration', {
    get: (k: string, d?: unknown) => (Object.hasOwn(settings, k) ? settings[k] : d),
    has: () => false,
    inspect: () => undefined,
    update: async () => undefined,
  });
  const plainClass = (name: string) => ({ [name]: class extends Bag {} })[name];
  // A plain object with own properties: the bundle copies the module's own names (esbuild's __toESM).
  const namespaces = [
    'commands',
    'lm',
    'languages',
    'env',
    'extensions',
    'tasks',
    'debug',
    'scm',
    'tests',
    'chat',
    'authentication',
    'notebooks',
    'l10n',
    'comments',
  ];
  return {
    ...Object.fromEntries(namespaces.map((n) => [n, tolerant(n)])),
    Uri,
    Disposable,
    EventEmitter,
    TreeItem,
    ThemeIcon,
    ThemeColor: plainClass('ThemeColor'),
    MarkdownString: plainClass('MarkdownString'),
    RelativePattern: plainClass('RelativePattern'),
    CancellationTokenSource,
    LanguageModelTextPart: plainClass('LanguageModelTextPart'),
    LanguageModelToolCallPart: plainClass('LanguageModelToolCallPart'),
    LanguageModelToolResultPart: plainClass('LanguageModelToolResultPart'),
    LanguageModelError: class extends Error {},
    TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
    StatusBarAlignment: { Left: 1, Right: 2 },
    ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    window: tolerant('window', {
      createOutputChannel: channel,
      showInformationMessage: notify('information'),
      showWarningMessage: notify('warning'),
      showErrorMessage: notify('error'),
    }),
    workspace: tolerant('workspace', {
      workspaceFolders: [{ uri: Uri.file(workspace), name: path.basename(workspace), index: 0 }],
      textDocuments: [],
      getConfiguration: () => configuration,
    }),
  };
}

/** An ExtensionContext whose storage (the default state directory) is `stateDir`. */
export function fakeContext(stateDir: string, extensionPath: string): any {
  const memento = () => {
    const m = new Map<string, unknown>();
    return {
      get: (k: string, d?: unknown) => (m.has(k) ? m.get(k) : d),
      update: async (k: string, v: unknown) => void m.set(k, v),
      keys: () => [...m.keys()],
      setKeysForSync: () => undefined,
    };
  };
  const secrets = new EventEmitter<unknown>();
  return tolerant('context', {
    subscriptions: [],
    extensionPath,
    extensionUri: Uri.file(extensionPath),
    storageUri: Uri.file(stateDir),
    globalStorageUri: Uri.file(stateDir),
    logUri: Uri.file(path.join(stateDir, 'logs')),
    storagePath: stateDir,
    globalStoragePath: stateDir,
    extensionMode: 1,
    asAbsolutePath: (p: string) => path.join(extensionPath, p),
    globalState: memento(),
    workspaceState: memento(),
    secrets: { get: async () => undefined, store: async () => undefined, delete: async () => undefined, onDidChange: secrets.event },
  });
}
