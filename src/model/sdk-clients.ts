/**
 * The vendors' SDK clients. Only sdk.ts's loadClients() loads this module, on the first
 * live model call: the SDKs are larger than all the rest, and the editor at startup (or a
 * run with the recorded model) never needs them parsed. Bundled apart as dist/sdk-clients.js.
 */
export { BaseAnthropic } from '@anthropic-ai/sdk';
export { OpenAI } from 'openai';
