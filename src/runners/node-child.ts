/**
 * Starting Node child processes with `process.execPath`. Inside VS Code's extension host that
 * path is the editor's Electron binary, which starts a whole editor instead of running the
 * script unless ELECTRON_RUN_AS_NODE=1 is set; under plain Node the variable is ignored. Every
 * spawn of process.execPath goes through this environment.
 */
export function nodeChildEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...base, ELECTRON_RUN_AS_NODE: '1' };
}
