export * from './messages';
export * from './schemas';
export * from './events';
export * from './demo-accounts';
export * from './roster';
