// no-inline: a data: URL would be refused by the page's script-src 'self'.
import micProcessorUrl from './mic-processor.js?url&no-inline';

/** The AudioWorklet processor (./mic-processor.js), emitted by the build as a same-origin asset. */
export const MIC_PROCESSOR_NAME = 'doorstep-mic-capture';
export const MIC_PROCESSOR_URL: string = micProcessorUrl;
