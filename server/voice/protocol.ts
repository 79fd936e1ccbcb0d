/** The socket contract lives in core/ so the browser engines share it. */
export * from '../../core/voice-protocol';
