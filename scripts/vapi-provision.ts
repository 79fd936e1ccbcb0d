/**
 * npm run vapi:provision — creates (or updates) the five homeowner assistants in Vapi from our
 * persona definitions, then prints the env lines the server reads (VAPI_ASSISTANT_<STAGE>).
 *
 *   VAPI_PRIVATE_KEY=...  (server-side API key; never the public key)
 *   VAPI_BASE_URL=https://api.vapi.ai (default)   VAPI_MODEL=gpt-4o-mini (default)
 *
 * Running it again updates the assistants it created (matched by name) instead of duplicating them.
 */
import { pathToFileURL } from 'node:url';
import { MAX_CALL_SEC } from '../core/constants';
import { STAGES, type Stage } from '../core/stages';
import { PERSONA_FACTS } from '../server/providers/brain/personas';
import { personaSystemPrompt } from '../server/providers/brain/prompt';

/** Vapi's own voices, one per persona so each homeowner sounds different. */
const VOICES: Record<Stage, string> = {
  Windows: 'Savannah',
  HVAC: 'Cole',
  Roofing: 'Harry',
  Flooring: 'Neha',
  General: 'Elliot',
};

export function assistantName(stage: Stage): string {
  return `Doorstep ${stage} homeowner (${PERSONA_FACTS[stage].card.name})`;
}

/** The Vapi assistant body for a stage: the same persona facts the built-in engines use. */
export function assistantDefinition(stage: Stage, model = 'gpt-4o-mini') {
  const facts = PERSONA_FACTS[stage];
  return {
    name: assistantName(stage),
    firstMessage: facts.openings[0],
    firstMessageMode: 'assistant-speaks-first',
    maxDurationSeconds: MAX_CALL_SEC,
    model: {
      provider: 'openai',
      model,
      temperature: 0.8,
      messages: [{ role: 'system', content: personaSystemPrompt(facts) }],
    },
    voice: { provider: 'vapi', voiceId: VOICES[stage] },
    transcriber: { provider: 'deepgram', model: 'nova-2', language: 'en' },
    backgroundDenoisingEnabled: true,
    metadata: { app: 'doorstep', stage },
  };
}

export class ProvisionError extends Error {}

interface Options {
  baseUrl: string;
  apiKey: string;
  model?: string;
  fetchImpl?: typeof fetch;
}

async function call<T>(opts: Options, method: string, path: string, body?: unknown): Promise<T> {
  const f = opts.fetchImpl ?? fetch;
  let res: Response;
  try {
    res = await f(`${opts.baseUrl.replace(/\/$/, '')}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${opts.apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ProvisionError(
      `Could not reach ${opts.baseUrl}: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  const text = await res.text();
  if (!res.ok) {
    const hint =
      res.status === 401 || res.status === 403
        ? ' (check VAPI_PRIVATE_KEY: the private API key, not the public one)'
        : '';
    throw new ProvisionError(`${method} ${path} failed: ${res.status} ${text.slice(0, 300)}${hint}`);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new ProvisionError(`${method} ${path} answered with something that is not JSON`);
  }
}

/** Creates or updates the five assistants; returns stage -> assistant id. */
export async function provisionAssistants(opts: Options): Promise<Record<Stage, string>> {
  const existing = await call<{ id: string; name?: string }[]>(opts, 'GET', '/assistant?limit=1000');
  if (!Array.isArray(existing)) throw new ProvisionError('GET /assistant did not return a list');
  const ids = {} as Record<Stage, string>;
  for (const stage of STAGES) {
    const body = assistantDefinition(stage, opts.model);
    const match = existing.find((a) => a.name === body.name);
    const saved = match
      ? await call<{ id: string }>(opts, 'PATCH', `/assistant/${encodeURIComponent(match.id)}`, body)
      : await call<{ id: string }>(opts, 'POST', '/assistant', body);
    if (!saved || typeof saved.id !== 'string' || !saved.id) {
      throw new ProvisionError(`The ${stage} assistant was saved but no id came back`);
    }
    ids[stage] = saved.id;
  }
  return ids;
}

export function envLines(ids: Record<Stage, string>): string[] {
  return ['VOICE_PROVIDER=vapi', ...STAGES.map((s) => `VAPI_ASSISTANT_${s.toUpperCase()}=${ids[s]}`)];
}

export async function main(
  env: Record<string, string | undefined> = process.env,
  out = console,
): Promise<number> {
  const apiKey = env.VAPI_PRIVATE_KEY?.trim();
  if (!apiKey) {
    out.error('Set VAPI_PRIVATE_KEY (your Vapi private API key) to create the assistants.');
    return 1;
  }
  try {
    const ids = await provisionAssistants({
      baseUrl: env.VAPI_BASE_URL?.trim() || 'https://api.vapi.ai',
      apiKey,
      model: env.VAPI_MODEL?.trim() || undefined,
    });
    out.log('# Add these to your environment, with VAPI_PUBLIC_KEY=<your public key>:');
    for (const line of envLines(ids)) out.log(line);
    return 0;
  } catch (err) {
    out.error(err instanceof ProvisionError ? err.message : `Provisioning failed: ${String(err)}`);
    return 1;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then((code) => process.exit(code));
}
