import client from 'prom-client';

/**
 * Prometheus metrics served at /metrics. One registry per process: every server started in
 * the process (tests start several) records into the same series.
 *
 * Prometheus measures time in seconds; the record* helpers take milliseconds like the rest
 * of the code and convert.
 */
export const registry = new client.Registry();
client.collectDefaultMetrics({ register: registry, prefix: 'doorstep_' });

export const httpRequestDuration = new client.Histogram({
  name: 'doorstep_http_request_duration_seconds',
  help: 'HTTP request latency by route and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

export const jobDuration = new client.Histogram({
  name: 'doorstep_job_duration_seconds',
  help: 'Background job run time by kind and outcome (done, retry, failed, interrupted)',
  labelNames: ['kind', 'outcome'] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  registers: [registry],
});

export const queueDepth = new client.Gauge({
  name: 'doorstep_job_queue_depth',
  help: 'Jobs in the durable queue by status, read from the database at scrape time',
  labelNames: ['status'] as const,
  registers: [registry],
});

export const liveCalls = new client.Gauge({
  name: 'doorstep_live_calls',
  help: 'Role-play voice calls in progress',
  registers: [registry],
});

export const sttRealTimeFactor = new client.Histogram({
  name: 'doorstep_stt_real_time_factor',
  help: 'Speech-to-text processing time divided by audio duration (below 1 is faster than real time), by engine and clip or stream',
  labelNames: ['engine', 'mode'] as const,
  buckets: [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 3, 5],
  registers: [registry],
});

export const voiceTurnLatency = new client.Histogram({
  name: 'doorstep_voice_turn_latency_seconds',
  help: "Time from the end of the rep's speech to the first audio of the homeowner's reply",
  labelNames: ['brain', 'tts'] as const,
  buckets: [0.1, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 5, 10],
  registers: [registry],
});

export const rateLimited = new client.Counter({
  name: 'doorstep_rate_limited_total',
  help: 'Requests refused with 429, by limit',
  labelNames: ['limit'] as const,
  registers: [registry],
});

export function recordJobDuration(kind: string, outcome: string, ms: number): void {
  jobDuration.observe({ kind, outcome }, ms / 1000);
}

/** mode: 'clip' for whole-clip decodes (uploads, end-of-turn finals), 'stream' for live recognisers. */
export function recordSttRealTimeFactor(engine: string, mode: 'clip' | 'stream', factor: number): void {
  if (Number.isFinite(factor) && factor >= 0) sttRealTimeFactor.observe({ engine, mode }, factor);
}

export function recordVoiceTurnLatency(ms: number, labels: { brain?: string; tts?: string } = {}): void {
  if (Number.isFinite(ms) && ms >= 0)
    voiceTurnLatency.observe({ brain: labels.brain ?? 'unknown', tts: labels.tts ?? 'unknown' }, ms / 1000);
}

/** Call when a live call starts; the returned function ends it (safe to call twice). */
export function trackLiveCall(): () => void {
  liveCalls.inc();
  let ended = false;
  return () => {
    if (ended) return;
    ended = true;
    liveCalls.dec();
  };
}
