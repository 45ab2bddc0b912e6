export * from './messages';
export * from './slides-url';
export * from './schemas';
export * from './events';
export * from './audio-proxy-hosts';
