/** The role-play page driven by the scripted replay engine at test speed. */
export function roleplayUrl(
  base: string,
  opts: { script?: string; stage?: string; pace?: 'fast' | 'real' } = {},
): string {
  const params = new URLSearchParams({ voice: 'replay', pace: opts.pace ?? 'fast' });
  if (opts.script) params.set('script', opts.script);
  if (opts.stage) params.set('stage', opts.stage);
  return `${base}/?${params.toString()}`;
}
