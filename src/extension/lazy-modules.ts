/**
 * The core, loaded on first use: activation only lists this workspace's runs, so the job,
 * tools, tracker and providers are required when a command first needs them (esbuild still
 * bundles them into dist/extension.js; this keeps their module setup out of activation).
 */
export type JobModule = typeof import('../triage/job');
export type RunAdminModule = typeof import('../triage/run-admin');
export type CatalogModule = typeof import('../triage/tasks/catalog');
export type RunInfoModule = typeof import('../triage/runinfo');
export type StoresModule = typeof import('../store/open-store');
export type CrashFolderModule = typeof import('../triage/tasks/crash-folder');
export type TranscriptModule = typeof import('../transcript/load');
export type RunFilesModule = typeof import('../triage/run-files');
export type SampleModule = typeof import('../triage/tasks/sample-copy');

/* eslint-disable @typescript-eslint/no-require-imports */
export function job(): JobModule {
  return require('../triage/job') as JobModule;
}

export function runAdmin(): RunAdminModule {
  return require('../triage/run-admin') as RunAdminModule;
}

export function catalog(): CatalogModule {
  return require('../triage/tasks/catalog') as CatalogModule;
}

export function runInfo(): RunInfoModule {
  return require('../triage/runinfo') as RunInfoModule;
}

export function stores(): StoresModule {
  return require('../store/open-store') as StoresModule;
}

export function crashFolder(): CrashFolderModule {
  return require('../triage/tasks/crash-folder') as CrashFolderModule;
}

export function transcripts(): TranscriptModule {
  return require('../transcript/load') as TranscriptModule;
}

export function runFiles(): RunFilesModule {
  return require('../triage/run-files') as RunFilesModule;
}

export function samples(): SampleModule {
  return require('../triage/tasks/sample-copy') as SampleModule;
}
