/**
 * One Run panel per run, whatever order the editor hands panels over in: a panel the editor
 * restores after a reload (its serializer) may arrive before or after the run asks to be shown,
 * and a window restored with tabs that were already doubled brings several for one run. The
 * registry keeps the first live panel of a run and says which others to close, so no tab is
 * left loading forever with nothing behind it.
 *
 * Tabs the editor keeps from an extension host that died (a crash) are not handed to the new
 * host at all; `strayTabs` picks those out by their title so they can be closed.
 */

export type PanelOrigin = 'created' | 'restored';

export interface Adopted<P> {
  /** The panel the run is shown in from now on. */
  keep: P;
  /** Panels to close: a second panel of the same run. */
  close: P[];
}

export class PanelRegistry<P> {
  private readonly panels = new Map<string, P>();

  get(runId: string): P | undefined {
    return this.panels.get(runId);
  }

  has(runId: string): boolean {
    return this.panels.has(runId);
  }

  entries(): [string, P][] {
    return [...this.panels];
  }

  /**
   * A panel for runId arrived. The run's panel already open stays (it is live and shown);
   * the newcomer is closed. The first panel of a run is kept.
   */
  adopt(runId: string, panel: P, _origin: PanelOrigin): Adopted<P> {
    const existing = this.panels.get(runId);
    if (existing !== undefined && existing !== panel) return { keep: existing, close: [panel] };
    this.panels.set(runId, panel);
    return { keep: panel, close: [] };
  }

  /** The panel was closed: forget it (only if it is the run's panel). */
  forget(runId: string, panel: P): void {
    if (this.panels.get(runId) === panel) this.panels.delete(runId);
  }
}

/** The parts of an editor tab the stray check needs. */
export interface TabLike {
  label: string;
  /** The webview's view type as the tab API reports it (it may carry a prefix, e.g. "mainThreadWebview-"). */
  viewType?: string;
}

/**
 * The tabs of Run panels titled runTitle ("Run: <short ID>", with or without " (waiting for you)"):
 * asked for when this extension holds no panel of that run, so each is one it does not hold:
 * left by an extension host that stopped (blank, nothing answers it), or restored by the
 * editor and not yet handed over. Closing them before opening the run's panel leaves one tab.
 */
export function strayTabs<T extends TabLike>(tabs: readonly T[], viewType: string, runTitle: string): T[] {
  return tabs.filter(
    (t) => (t.viewType === viewType || (t.viewType?.endsWith(`-${viewType}`) ?? false)) && (t.label === runTitle || t.label.startsWith(`${runTitle} (`)),
  );
}
