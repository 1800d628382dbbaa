/** An ecosystem's flow on test/cli/sentry-pr-setup.ts's harness: the fixture, its set-up and its real crashes as the Sentry project. */
import * as path from 'node:path';
import type { TestContext } from 'node:test';
import { startFlowWith, type Flow } from '../sentry-pr-setup';
import type { StandinSentryIssue } from '../../support/sentry-standin';
import type { Turn } from '../../support/turn-model';
import type { Ecosystem } from './flow';

export const FIXTURES = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'ecosystems');

export function startFlowOn(t: TestContext, eco: Ecosystem, o: { issues(checkout: string): StandinSentryIssue[]; script: Turn[] }): Promise<Flow> {
  return startFlowWith(t, {
    fixture: path.join(FIXTURES, eco.name),
    repo: `acme/${eco.name}`,
    issues: o.issues,
    script: o.script,
    sentryLimit: eco.causes.length,
    prepare: (ws) => eco.install(ws),
    ...(eco.env ? { env: eco.env } : {}),
    ...(eco.runArgs ? { runArgs: eco.runArgs } : {}),
  });
}
