export * from './common/events';
export * from './common/errors';
export * from './identity/messages';
export * from './identity/schemas';
export * from './identity/events';
export * from './identity/demo-accounts';
