export * from './messages';
export * from './slides-url';
export * from './schemas';
export * from './events';
