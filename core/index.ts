export * from './constants';
export * from './stages';
export * from './transcript';
export * from './speaking-balance';
export * from './coaching-format';
export * from './audio-validation';
export * from './schemas';
export * from './conversation-metrics';
